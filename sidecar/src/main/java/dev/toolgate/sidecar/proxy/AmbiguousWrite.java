package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.model.Lookup;
import dev.toolgate.policy.outcome.AgentCode;
import dev.toolgate.policy.outcome.Wording;
import dev.toolgate.sidecar.evidence.Decision;
import io.vertx.core.json.JsonObject;

/**
 * A write that reached the backend and whose answer was lost (a timeout, a closed stream): never
 * retried; looked up by its idempotency key with the policy's lookup tool, and the agent told what
 * the lookup found — or, without a key or a lookup, told to check before relaunching.
 */
final class AmbiguousWrite {

  private AmbiguousWrite() {}

  static void answer(ToolCall call, Attempt.Outcome o) {
    IdempotentWrite write = call.write();
    String key = write == null ? null : write.key();
    String tool = call.identity().tool();
    JsonObject details =
        new JsonObject().put("idempotencyKey", key).put("result", o.result().wireName());
    if (o.timeoutLayer() != null) {
      details.put("timeoutLayer", o.timeoutLayer().wireName());
    }
    String what = Wording.answerLost(tool, o.result());
    Lookup lookup = call.rule().idempotency() == null ? null : call.rule().idempotency().lookup();
    if (key == null || lookup == null) {
      if (write != null) {
        write.markAmbiguous(null);
      }
      call.context()
          .reply()
          .error(
              AgentCode.AMBIGUOUS_WRITE,
              what + Wording.NO_LOOKUP,
              details.put("lookup", "not_configured"));
      return;
    }
    CallServices s = call.services();
    OperationLookup.run(s, call.context(), lookup, key, call.policy().budget())
        .onSuccess(
            found -> {
              String state = found.state();
              String operationId = found.operationId();
              write.markAmbiguous(operationId);
              details.put("lookup", state);
              if (operationId != null) {
                details.put("operationId", operationId);
              }
              call.evidence()
                  .entry(Decision.AMBIGUOUS_LOOKUP)
                  .of(found.attempt(), found.outcome())
                  .reason("looked up " + tool + " by its idempotency key: " + state)
                  .operationId(operationId)
                  .tool(lookup.tool())
                  .write();
              call.context()
                  .reply()
                  .error(
                      AgentCode.AMBIGUOUS_WRITE,
                      what + Wording.lookupFound(state, operationId, found.outcome().result()),
                      details);
            });
  }
}
