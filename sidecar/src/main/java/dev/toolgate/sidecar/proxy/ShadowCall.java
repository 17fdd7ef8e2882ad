package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.admission.Admission;
import dev.toolgate.policy.budget.CallBudget;
import dev.toolgate.policy.budget.TimeoutLayer;
import dev.toolgate.policy.outcome.ShadowVerdict;
import dev.toolgate.policy.retry.RetryDecider;
import dev.toolgate.policy.retry.RetryDecision;
import dev.toolgate.sidecar.evidence.Decision;
import dev.toolgate.sidecar.mcp.JsonRpc;

/**
 * A call in shadow mode: every decision is computed and recorded ({@link ShadowVerdict}), none is
 * enforced. The call is relayed as if no policy applied: one attempt, no sidecar timeout but a
 * safety net, backend errors passed through as they came.
 */
final class ShadowCall {

  /** Shadow mode's only bound: a safety net, not a policy. */
  static final long SHADOW_CEILING_MS = 600_000;

  private static final RetryDecision NOT_ASKED = new RetryDecision(false, 0, "not a failure");

  private ShadowCall() {}

  static void run(ToolCall call) {
    CallServices s = call.services();
    Admission.Decision admission = call.policyDecision();
    CallBudget.AttemptTimeout enforced = call.budget().attemptTimeout(s.clock().millis());
    Attempt a =
        new Attempt(
            s,
            call.context(),
            1,
            new CallBudget.AttemptTimeout(SHADOW_CEILING_MS, TimeoutLayer.ATTEMPT),
            true,
            call.attempts()::late);
    call.attempts().track(a);
    a.start()
        .onSuccess(
            o -> {
              call.finish();
              boolean failed = !o.answered() || o.result().isBackendFailure();
              RetryDecision retry =
                  failed
                      ? RetryDecider.decide(
                          call.rule(),
                          o.result(),
                          o.ambiguous(),
                          1,
                          call.budget().remainingMs(s.clock().millis()),
                          o.retryAfterMs(),
                          s.random())
                      : NOT_ASKED;
              ShadowVerdict would =
                  ShadowVerdict.of(
                      admission, o.nanos() / 1_000_000, enforced, o.answered(), o.result(), retry);
              if (!o.answered()) {
                call.context()
                    .reply()
                    .response()
                    .setStatusCode(502)
                    .putHeader("Content-Type", "application/json")
                    .end(
                        JsonRpc.error(
                            null,
                            JsonRpc.UPSTREAM_UNAVAILABLE,
                            "upstream '" + call.upstream() + "' failed: " + o.result().wireName()));
              }
              s.metrics()
                  .shadowDecision(call.upstream(), call.toolLabel(), would.kind().wireName());
              call.evidence().called(o.result());
              call.evidence()
                  .entry(Decision.SHADOW)
                  .of(a, o)
                  .reason(admission.admitted() ? null : String.join("; ", admission.reasons()))
                  .wouldHave(would)
                  .write();
            });
    call.identity().derive();
  }
}
