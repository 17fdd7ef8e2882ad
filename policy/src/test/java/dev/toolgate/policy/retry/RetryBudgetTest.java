package dev.toolgate.policy.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RetryBudgetTest {

  @Test
  void allowsTheFloorEvenWithoutTraffic() {
    RetryBudget budget = new RetryBudget(0.2, 1, 10);

    int allowed = 0;
    for (int i = 0; i < 20; i++) {
      if (budget.tryAcquireRetry(0)) {
        allowed++;
      }
    }
    assertThat(allowed).isEqualTo(10);
  }

  @Test
  void capsRetriesAtTheRatioOfCallsWhenEverythingFails() {
    RetryBudget budget = new RetryBudget(0.2, 0, 10);
    for (int i = 0; i < 1_000; i++) {
      budget.recordCall(5_000);
    }

    int allowed = 0;
    for (int i = 0; i < 1_000; i++) {
      if (budget.tryAcquireRetry(5_000)) {
        allowed++;
      }
    }
    assertThat(allowed).isEqualTo(200);
  }

  @Test
  void forgetsCallsAndRetriesOlderThanTheWindow() {
    RetryBudget budget = new RetryBudget(0.5, 0, 2);
    for (int i = 0; i < 10; i++) {
      budget.recordCall(0);
    }
    assertThat(budget.tryAcquireRetry(0)).isTrue();

    assertThat(budget.tryAcquireRetry(5_000))
        .as("the calls of second 0 are out of the window")
        .isFalse();
  }

  @Test
  void refusesABadConfigurationNamingTheValue() {
    assertThatThrownBy(() -> new RetryBudget(1.5, 1, 10))
        .hasMessage("retry budget ratio must be in [0, 1], was 1.5");
  }
}
