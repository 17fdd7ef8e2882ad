package dev.toolgate.policy.budget;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.Budget;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class CallBudgetTest {

  private static final Budget SEED = Budget.DEFAULT; // 20000/15000/3000/10000/7000

  @Test
  void boundsTheCallByTheTransportBudgetWhenTheAgentSaysNothing() {
    CallBudget budget = CallBudget.plan(SEED, OptionalLong.empty(), 1_000);

    assertThat(budget.deadlineMs()).isEqualTo(11_000);
    assertThat(budget.callLayer()).isEqualTo(TimeoutLayer.CALL_BUDGET);
  }

  @Test
  void keepsTheAgentsReserveWhenItsDeadlineIsTighter() {
    CallBudget budget = CallBudget.plan(SEED, OptionalLong.of(8_000), 0);

    assertThat(budget.deadlineMs()).isEqualTo(5_000);
    assertThat(budget.callLayer()).isEqualTo(TimeoutLayer.AGENT_DEADLINE);
  }

  @Test
  void givesEachAttemptTheBackendTimeoutWhileItFits() {
    CallBudget budget = CallBudget.plan(SEED, OptionalLong.empty(), 0);

    assertThat(budget.attemptTimeout(0))
        .isEqualTo(new CallBudget.AttemptTimeout(7_000, TimeoutLayer.ATTEMPT));
    assertThat(budget.attemptTimeout(4_000))
        .isEqualTo(new CallBudget.AttemptTimeout(6_000, TimeoutLayer.CALL_BUDGET));
  }

  @Test
  void nameTheAgentDeadlineAsTheLayerThatBoundsALateAttempt() {
    CallBudget budget = CallBudget.plan(SEED, OptionalLong.of(6_000), 0);

    assertThat(budget.attemptTimeout(1_000))
        .isEqualTo(new CallBudget.AttemptTimeout(2_000, TimeoutLayer.AGENT_DEADLINE));
  }

  @Test
  void neverReportsNegativeTimeLeft() {
    CallBudget budget = CallBudget.plan(SEED, OptionalLong.of(1_000), 0);

    assertThat(budget.remainingMs(0)).isZero();
    assertThat(budget.remainingMs(50_000)).isZero();
  }
}
