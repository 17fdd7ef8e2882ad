package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.idempotency.IntentFingerprint;
import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.sidecar.evidence.Decision;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

/**
 * An expensive read with {@code shareConcurrentCalls}: the first of identical concurrent calls
 * (same tool and arguments) runs, and the others wait for its answer instead of calling the backend
 * again. If the first one fails without an answer or goes away, a waiting call runs its own
 * attempts.
 */
final class SharedRead {

  private final ToolCall call;
  private final CallServices s;

  /** Set while this call is the one the others wait for. */
  private String leading;

  SharedRead(ToolCall call) {
    this.call = call;
    this.s = call.services();
  }

  /** The admission step: true when this call runs; false when it waits for the running one. */
  Future<Boolean> admit() {
    String key =
        IntentFingerprint.ofArgumentsHash(
            "", call.identity().tool(), call.identity().argumentsHash());
    Promise<JsonObject> mine = Promise.promise();
    Promise<JsonObject> leader = s.sharedCalls().putIfAbsent(key, mine);
    if (leader == null) {
      leading = key;
      return Future.succeededFuture(true);
    }
    call.gate().release();
    leader.future().onSuccess(this::answerFromLeader).onFailure(e -> call.admitted());
    return Future.succeededFuture(false);
  }

  private void answerFromLeader(JsonObject answer) {
    call.context().reply().answer(answer.copy());
    ResultClass result = Attempt.classify(answer);
    call.evidence()
        .entry(Decision.SHARED)
        .result(result)
        .reason("an identical call was running; its answer was shared")
        .write();
    call.evidence().called(result);
    call.finish();
  }

  /** This call's answer, for the calls waiting on it; null when it has none to give. */
  void share(JsonObject answer) {
    if (leading == null) {
      return;
    }
    Promise<JsonObject> p = s.sharedCalls().remove(leading);
    if (p != null) {
      if (answer != null) {
        p.tryComplete(answer.copy());
      } else {
        p.tryFail("no answer to share");
      }
    }
  }

  /** This call's agent went away: the waiting calls run on their own. */
  void abandon() {
    if (leading == null) {
      return;
    }
    Promise<JsonObject> p = s.sharedCalls().remove(leading);
    if (p != null) {
      p.tryFail("the first caller went away");
    }
  }
}
