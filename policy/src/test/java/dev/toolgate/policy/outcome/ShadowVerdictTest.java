package dev.toolgate.policy.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.admission.Admission;
import dev.toolgate.policy.budget.CallBudget;
import dev.toolgate.policy.budget.TimeoutLayer;
import dev.toolgate.policy.retry.RetryDecision;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShadowVerdictTest {

  private static final Admission.Decision ADMITTED = new Admission.Decision(true, null, List.of());
  private static final Admission.Decision BLOCKED =
      new Admission.Decision(false, AgentCode.WRITES_BLOCKED, List.of("kill switch"));
  private static final CallBudget.AttemptTimeout SEVEN_SECONDS =
      new CallBudget.AttemptTimeout(7_000, TimeoutLayer.ATTEMPT);
  private static final RetryDecision RETRY = new RetryDecision(true, 100, "retry 1");
  private static final RetryDecision NO_RETRY = new RetryDecision(false, 0, "not in retryOn");

  @Test
  void aDeniedCallWouldHaveBeenDeniedWithItsCodeWhateverTheBackendDid() {
    ShadowVerdict v =
        ShadowVerdict.of(BLOCKED, 9_000, SEVEN_SECONDS, true, ResultClass.SUCCESS, NO_RETRY);

    assertThat(v.wireName()).isEqualTo("deny:writes_blocked");
    assertThat(v.kind().wireName()).isEqualTo("deny");
  }

  @Test
  void aSlowAnswerWouldHaveTimedOutNamingTheLayer() {
    ShadowVerdict v =
        ShadowVerdict.of(ADMITTED, 7_001, SEVEN_SECONDS, true, ResultClass.SUCCESS, NO_RETRY);

    assertThat(v.wireName()).isEqualTo("timeout:attempt");
  }

  @Test
  void anAnswerWithinTheBudgetWouldHaveBeenForwarded() {
    assertThat(
            ShadowVerdict.of(ADMITTED, 7_000, SEVEN_SECONDS, true, ResultClass.SUCCESS, RETRY)
                .wireName())
        .isEqualTo("forward");
  }

  @Test
  void aBackendFailureWouldHaveBeenRetriedOrFailedAsTheRetryPolicySays() {
    assertThat(
            ShadowVerdict.of(ADMITTED, 5, SEVEN_SECONDS, true, ResultClass.BACKEND_503, RETRY)
                .wireName())
        .isEqualTo("retry");
    assertThat(
            ShadowVerdict.of(ADMITTED, 5, SEVEN_SECONDS, true, ResultClass.BACKEND_503, NO_RETRY)
                .wireName())
        .isEqualTo("fail");
    assertThat(
            ShadowVerdict.of(
                    ADMITTED, 5, SEVEN_SECONDS, false, ResultClass.TRANSPORT_UNAVAILABLE, NO_RETRY)
                .kind())
        .isEqualTo(ShadowVerdict.Kind.FAIL);
  }

  @Test
  void aToolErrorIsABusinessResultAndWouldHaveBeenForwarded() {
    assertThat(
            ShadowVerdict.of(ADMITTED, 5, SEVEN_SECONDS, true, ResultClass.TOOL_ERROR, RETRY)
                .wireName())
        .isEqualTo("forward");
  }
}
