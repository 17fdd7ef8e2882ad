package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.budget.CallBudget;
import dev.toolgate.policy.outcome.AgentCode;
import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.policy.outcome.Wording;
import dev.toolgate.policy.retry.RetryDecider;
import dev.toolgate.policy.retry.RetryDecision;
import dev.toolgate.sidecar.evidence.Decision;
import dev.toolgate.sidecar.mcp.OperationId;
import io.vertx.core.json.JsonObject;

/**
 * A call's attempts against its upstream: each within what remains of the budget, each asking the
 * breaker again, retried only where the tool's policy allows and nothing vetoes it (an open
 * circuit, the sidecar-wide retry budget), after the backoff's delay on a timer. The last attempt
 * ends the call: its answer forwarded, or the failure worded for the agent, or an ambiguous write
 * looked up.
 */
final class AttemptLoop {

  private final ToolCall call;
  private final CallServices s;
  private Attempt current;
  private long retryTimer = -1;

  AttemptLoop(ToolCall call) {
    this.call = call;
    this.s = call.services();
  }

  void start() {
    s.retryBudget().recordCall(s.clock().millis());
    attempt(1, null);
  }

  /** The attempt running, or the last one; null before the first. */
  Attempt current() {
    return current;
  }

  /**
   * An attempt run outside the loop (shadow mode's one attempt), so the agent's leaving cancels it.
   */
  void track(Attempt a) {
    current = a;
  }

  /** The agent went away: no retry starts, the attempt running is cancelled. */
  void agentGone() {
    if (retryTimer >= 0) {
      s.vertx().cancelTimer(retryTimer);
      retryTimer = -1;
    }
    if (current != null) {
      current.agentGone();
    }
  }

  /**
   * The agent cancelled the call: a retry waiting for its backoff never starts, and an attempt
   * running is cancelled upstream.
   *
   * @return true when an attempt was running: its end writes the call's event
   */
  boolean cancelByAgent() {
    if (retryTimer >= 0) {
      s.vertx().cancelTimer(retryTimer);
      retryTimer = -1;
      return false;
    }
    if (current != null && !current.settled()) {
      current.cancelByAgent();
      return true;
    }
    return false;
  }

  /** An abandoned attempt's late answer: recorded, never forwarded, never followed by a write. */
  void late(Attempt a, JsonObject answer) {
    String operationId = OperationId.of(answer);
    if (call.write() != null) {
      call.write().lateOperation(operationId);
    }
    call.evidence()
        .entry(Decision.LATE_RESULT)
        .attempt(a)
        .result(Attempt.classify(answer))
        .reason(
            "answer of an abandoned attempt: recorded, never forwarded, never followed by a second"
                + " write")
        .operationId(operationId)
        .write();
  }

  private void attempt(int number, String retryReason) {
    retryTimer = -1;
    if (call.done()) {
      return;
    }
    CallBudget budget = call.budget();
    CallBudget.AttemptTimeout timeout = budget.attemptTimeout(s.clock().millis());
    if (timeout.timeoutMs() < RetryDecider.MIN_ATTEMPT_MS) {
      call.deny(
          AgentCode.BUDGET_EXHAUSTED,
          Wording.budgetExhausted(budget.callLayer(), call.identity().tool()),
          new JsonObject().put("timeoutLayer", budget.callLayer().wireName()));
      return;
    }
    if (!call.gate().reacquire(call::deny)) {
      return;
    }
    Attempt a = new Attempt(s, call.context(), number, timeout, false, this::late);
    current = a;
    a.start().onSuccess(o -> ended(a, o, retryReason));
    // The request is upstream by now unless a connection is still being opened.
    call.identity().derive();
  }

  private void ended(Attempt a, Attempt.Outcome o, String retryReason) {
    call.gate().record(o);
    if (o.timeoutLayer() != null) {
      s.metrics().timeout(call.upstream(), call.toolLabel(), o.timeoutLayer().wireName());
    }
    if (call.cancelledByAgent()) {
      call.finish();
      if (call.write() != null) {
        call.write().attemptAnswered(o);
      }
      call.evidence()
          .attemptEnded(a, o, Decision.CANCELLED_BY_AGENT, retryReason, "notifications/cancelled");
      call.evidence().called(ResultClass.CANCELLED);
      return;
    }
    if (o.answered() || o.result() == ResultClass.CANCELLED) {
      answered(o);
      // The answer is written after this returns, in the same task; its evidence and metrics wait
      // for that, off the agent's latency. What the answer must wait for is settled above.
      s.vertx()
          .runOnContext(
              v -> {
                call.evidence()
                    .attemptEnded(
                        a,
                        o,
                        o.answered() ? Decision.FORWARDED : Decision.CANCELLED,
                        retryReason,
                        null);
                call.evidence().called(o.result());
              });
      return;
    }
    long now = s.clock().millis();
    RetryDecision allowed =
        RetryDecider.decide(
            call.rule(),
            o.result(),
            o.ambiguous(),
            a.number(),
            call.budget().remainingMs(now),
            o.retryAfterMs(),
            s.random());
    RetryDecision decision =
        RetryDecider.withVetoes(
            allowed,
            allowed.retry() && call.gate().open(),
            () -> s.retryBudget().tryAcquireRetry(now));
    call.evidence()
        .attemptEnded(
            a,
            o,
            decision.retry() ? Decision.RETRIED : Decision.FINAL,
            retryReason,
            decision.reason());
    if (decision.retry() && !call.done()) {
      s.metrics().retry(call.upstream(), call.toolLabel(), o.result().wireName());
      String why = decision.reason();
      retryTimer =
          s.vertx().setTimer(Math.max(1, decision.delayMs()), t -> attempt(a.number() + 1, why));
      return;
    }
    failed(o, decision.reason());
  }

  private void answered(Attempt.Outcome o) {
    call.finish();
    if (call.write() != null) {
      call.write().attemptAnswered(o);
    }
    if (call.shared() != null) {
      call.shared().share(o.answer() == null ? null : o.answer().json());
    }
  }

  private void failed(Attempt.Outcome o, String why) {
    call.finish();
    call.evidence().called(o.result());
    if (call.rule().effect().isWrite() && o.ambiguous()) {
      AmbiguousWrite.answer(call, o);
      return;
    }
    if (call.write() != null) {
      call.write().release();
    }
    JsonObject details =
        new JsonObject().put("result", o.result().wireName()).put("attempts", current.number());
    if (o.httpStatus() > 0) {
      details.put("httpStatus", o.httpStatus());
    }
    o.retryAfterMs().ifPresent(ms -> details.put("retryAfterMs", ms));
    if (o.result() == ResultClass.TIMEOUT) {
      details.put("timeoutLayer", o.timeoutLayer().wireName());
    }
    Wording.Failure failure =
        Wording.failure(
            o.result(),
            o.timeoutLayer(),
            call.identity().tool(),
            call.upstream(),
            why,
            call.rule().effect().isWrite());
    call.context().reply().error(failure.code(), failure.sentence(), details);
    if (call.shared() != null) {
      call.shared().share(call.context().reply().lastAnswer());
    }
  }
}
