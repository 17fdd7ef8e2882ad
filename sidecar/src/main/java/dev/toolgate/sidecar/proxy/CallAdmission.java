package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.admission.Admission;
import dev.toolgate.policy.admission.AdmissionStep;
import dev.toolgate.policy.outcome.AgentCode;
import dev.toolgate.policy.outcome.Wording;
import io.vertx.core.Future;
import java.util.List;

/**
 * A call's admission: the steps {@link AdmissionStep#order} gives for its rule, run one after the
 * other; a step that denies has answered the agent, and the call ends there. When every step lets
 * it through, the call goes on to its attempts ({@link ToolCall#admitted}).
 */
final class CallAdmission {

  private final ToolCall call;
  private final List<AdmissionStep> steps;

  private CallAdmission(ToolCall call) {
    this.call = call;
    this.steps = AdmissionStep.order(call.rule());
  }

  static void run(ToolCall call) {
    new CallAdmission(call).from(0);
  }

  private void from(int next) {
    if (next == steps.size()) {
      call.admitted();
      return;
    }
    step(steps.get(next))
        .onSuccess(
            goOn -> {
              if (goOn) {
                from(next + 1);
              }
            });
  }

  private Future<Boolean> step(AdmissionStep step) {
    return switch (step) {
      case POLICY -> Future.succeededFuture(byPolicy());
      case QUOTA -> byQuota();
      case BREAKER -> call.gate().admit(call::deny);
      case IDEMPOTENCY -> call.write().admit();
      case SHARED_READ -> call.shared().admit();
    };
  }

  private boolean byPolicy() {
    Admission.Decision decision = call.policyDecision();
    if (!decision.admitted()) {
      call.deny(
          decision.code(),
          String.join("; ", decision.reasons()) + Wording.hint(decision.code()),
          null);
    }
    return decision.admitted();
  }

  private Future<Boolean> byQuota() {
    CallServices s = call.services();
    return s.quotas()
        .consume(
            call.identity().sessionKey(),
            call.agentId(),
            call.rule().effect().isWrite(),
            call.policy().quotas(),
            s.clock().millis())
        .map(
            verdict -> {
              if (!verdict.allowed()) {
                QuotaBlock.answer(call, verdict);
              }
              return verdict.allowed();
            })
        .otherwise(
            e -> {
              call.deny(
                  AgentCode.POLICY_DENIED,
                  "the quota state is unavailable: " + e.getMessage(),
                  null);
              return false;
            });
  }
}
