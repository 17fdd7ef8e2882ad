package dev.toolgate.policy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.admission.Admission.ApprovalStatus;
import dev.toolgate.policy.model.Approval;
import dev.toolgate.policy.model.Effect;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.outcome.AgentCode;
import org.junit.jupiter.api.Test;

class AdmissionTest {

  private static ToolRule rule(Effect effect, Approval approval) {
    return new ToolRule("restart_deployment_job", "api", effect, null, null, approval, null);
  }

  @Test
  void theKillSwitchBlocksWritesAndLetsReadsThrough() {
    assertThat(
            Admission.decide(
                    rule(Effect.IDEMPOTENT_WRITE, Approval.NONE), true, ApprovalStatus.NONE)
                .code())
        .isEqualTo(AgentCode.WRITES_BLOCKED);
    assertThat(
            Admission.decide(rule(Effect.READ_ONLY, Approval.NONE), true, ApprovalStatus.NONE)
                .admitted())
        .isTrue();
  }

  @Test
  void theKillSwitchComesBeforeApproval() {
    assertThat(
            Admission.decide(
                    rule(Effect.IDEMPOTENT_WRITE, Approval.HUMAN_REQUIRED),
                    true,
                    ApprovalStatus.NONE)
                .code())
        .isEqualTo(AgentCode.WRITES_BLOCKED);
  }

  @Test
  void anApprovedToolNeedsAValidToken() {
    ToolRule approved = rule(Effect.IDEMPOTENT_WRITE, Approval.HUMAN_REQUIRED);

    assertThat(Admission.decide(approved, false, ApprovalStatus.NONE).code())
        .isEqualTo(AgentCode.APPROVAL_REQUIRED);
    Admission.Decision refused =
        Admission.decide(approved, false, ApprovalStatus.refused("the approval expired 3 s ago"));
    assertThat(refused.code()).isEqualTo(AgentCode.APPROVAL_REQUIRED);
    assertThat(refused.reasons()).containsExactly("the approval expired 3 s ago");
    assertThat(Admission.decide(approved, false, ApprovalStatus.VALID).admitted()).isTrue();
  }
}
