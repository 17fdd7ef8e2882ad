package dev.toolgate.policy.approval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class ApprovalCheckTest {

  private static final ApprovalClaims CLAIMS =
      new ApprovalClaims("ap-1", "restart_deployment_job", "h1", "alice", 1_000, 1_900);

  @Test
  void holdsForTheApprovedToolArgumentsAndTime() {
    assertThat(ApprovalCheck.refusal(CLAIMS, "restart_deployment_job", "h1", 1_500, id -> false))
        .isNull();
  }

  @Test
  void refusesAnotherToolOtherArgumentsAnExpiredOrAUsedApproval() {
    assertThat(ApprovalCheck.refusal(CLAIMS, "delete_job", "h1", 1_500, id -> false))
        .isEqualTo("the approval is for tool 'restart_deployment_job', not 'delete_job'");
    assertThat(ApprovalCheck.refusal(CLAIMS, "restart_deployment_job", "h2", 1_500, id -> false))
        .contains("other arguments");
    assertThat(ApprovalCheck.refusal(CLAIMS, "restart_deployment_job", "h1", 1_900, id -> false))
        .isEqualTo("the approval expired 0 s ago");
    assertThat(
            ApprovalCheck.refusal(
                CLAIMS, "restart_deployment_job", "h1", 1_500, Set.of("ap-1")::contains))
        .contains("already used");
  }
}
