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

  private CallAdmission() {}

  static void run(ToolCall call) {
    from(call, AdmissionStep.order(call.rule()), 0);
  }

  /**
   * Runs the steps from {@code next} on: synchronous ones in place, the others when they answer.
   */
  private static void from(ToolCall call, List<AdmissionStep> steps, int next) {
    for (int i = next; i < steps.size(); i++) {
      if (call.done()) {
        return;
      }
      AdmissionStep step = steps.get(i);
      if (step == AdmissionStep.POLICY) {
        if (!byPolicy(call)) {
          return;
        }
        continue;
      }
      int after = i + 1;
      asynchronous(call, step)
          .onSuccess(
              goOn -> {
                if (goOn) {
                  from(call, steps, after);
                }
              });
      return;
    }
    if (!call.done()) {
      call.admitted();
    }
  }

  private static Future<Boolean> asynchronous(ToolCall call, AdmissionStep step) {
    return switch (step) {
      case QUOTA -> byQuota(call);
      case BREAKER -> call.gate().admit(call::deny);
      case IDEMPOTENCY -> call.write().admit();
      case SHARED_READ -> call.shared().admit();
      case POLICY -> throw new IllegalArgumentException("the policy step is decided in place");
    };
  }

  private static boolean byPolicy(ToolCall call) {
    Admission.Decision decision = call.policyDecision();
    if (!decision.admitted()) {
      call.deny(
          decision.code(),
          String.join("; ", decision.reasons()) + Wording.hint(decision.code()),
          null);
    }
    return decision.admitted();
  }

  /**
   * A write that took its key's record and is then refused by the quota never ran: its key is free
   * again, for the relaunch.
   */
  private static void releaseKey(ToolCall call) {
    String key = call.context().idempotencyKey();
    if (call.write() != null && key != null) {
      call.services().idempotency().release(key);
    }
  }

  private static Future<Boolean> byQuota(ToolCall call) {
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
                releaseKey(call);
                QuotaBlock.answer(call, verdict);
              }
              return verdict.allowed();
            })
        .otherwise(
            e -> {
              releaseKey(call);
              call.deny(
                  AgentCode.POLICY_DENIED,
                  "the quota state is unavailable: " + e.getMessage(),
                  null);
              return false;
            });
  }
}
