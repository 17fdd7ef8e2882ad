package dev.toolgate.policy.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.Backoff;
import dev.toolgate.policy.model.Effect;
import dev.toolgate.policy.model.IdempotencyPolicy;
import dev.toolgate.policy.model.Lookup;
import dev.toolgate.policy.model.RetryPolicy;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.outcome.ResultClass;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RetryDeciderTest {

  private static final RetryPolicy SEED_RETRY =
      new RetryPolicy(
          3,
          List.of(
              ResultClass.TRANSPORT_UNAVAILABLE,
              ResultClass.BACKEND_429,
              ResultClass.BACKEND_503,
              ResultClass.TIMEOUT),
          new Backoff(250L, 1500L));

  private static ToolRule rule(Effect effect) {
    return new ToolRule(
        "t",
        "api",
        effect,
        SEED_RETRY,
        null,
        null,
        new IdempotencyPolicy(List.of("intent_id"), new Lookup("get_operation_by_key", "k")));
  }

  private static RetryDecision decide(
      ToolRule rule,
      ResultClass result,
      boolean ambiguous,
      int attempt,
      long remaining,
      OptionalLong retryAfter) {
    return RetryDecider.decide(rule, result, ambiguous, attempt, remaining, retryAfter, () -> 0.5);
  }

  @Test
  void retriesATransient503OfAReadAfterAJitteredBackoff() {
    RetryDecision d =
        decide(
            rule(Effect.READ_ONLY), ResultClass.BACKEND_503, false, 1, 9_000, OptionalLong.empty());

    assertThat(d.retry()).isTrue();
    assertThat(d.delayMs()).isEqualTo(125);
    assertThat(d.reason()).isEqualTo("retry 1 after backend_503");
  }

  @Test
  void neverRetriesANonIdempotentWrite() {
    RetryDecision d =
        decide(
            rule(Effect.NON_IDEMPOTENT_WRITE),
            ResultClass.TRANSPORT_UNAVAILABLE,
            false,
            1,
            9_000,
            OptionalLong.empty());

    assertThat(d.retry()).isFalse();
    assertThat(d.reason()).contains("never retried");
  }

  @Test
  void doesNotRetryAnIdempotentWriteWhoseOutcomeIsAmbiguous() {
    RetryDecision d =
        decide(
            rule(Effect.IDEMPOTENT_WRITE),
            ResultClass.TIMEOUT,
            true,
            1,
            9_000,
            OptionalLong.empty());

    assertThat(d.retry()).isFalse();
    assertThat(d.reason()).contains("looked up by key");
  }

  @Test
  void retriesAnIdempotentWriteTheBackendRefusedOutright() {
    assertThat(
            decide(
                    rule(Effect.IDEMPOTENT_WRITE),
                    ResultClass.BACKEND_503,
                    false,
                    1,
                    9_000,
                    OptionalLong.empty())
                .retry())
        .isTrue();
  }

  @Test
  void doesNotRetryWhatRetryOnDoesNotListNorBusinessErrors() {
    assertThat(
            decide(
                    rule(Effect.READ_ONLY),
                    ResultClass.BACKEND_5XX_OTHER,
                    false,
                    1,
                    9_000,
                    OptionalLong.empty())
                .reason())
        .isEqualTo("backend_5xx_other is not in retryOn");
    assertThat(
            decide(
                    rule(Effect.READ_ONLY),
                    ResultClass.TOOL_ERROR,
                    false,
                    1,
                    9_000,
                    OptionalLong.empty())
                .retry())
        .isFalse();
    assertThat(
            decide(
                    rule(Effect.READ_ONLY),
                    ResultClass.INVALID_ARGUMENTS,
                    false,
                    1,
                    9_000,
                    OptionalLong.empty())
                .retry())
        .isFalse();
  }

  @Test
  void stopsAtMaxAttempts() {
    RetryDecision d =
        decide(
            rule(Effect.READ_ONLY), ResultClass.BACKEND_503, false, 3, 9_000, OptionalLong.empty());

    assertThat(d).isEqualTo(new RetryDecision(false, 0, "maxAttempts (3) reached"));
  }

  @Test
  void honoursRetryAfterWhenLongerThanTheBackoff() {
    RetryDecision d =
        decide(
            rule(Effect.READ_ONLY),
            ResultClass.BACKEND_429,
            false,
            1,
            9_000,
            OptionalLong.of(2_000));

    assertThat(d.retry()).isTrue();
    assertThat(d.delayMs()).isEqualTo(2_000);
  }

  @Test
  void doesNotRetryWhenRetryAfterExceedsTheBudgetLeft() {
    RetryDecision d =
        decide(
            rule(Effect.READ_ONLY),
            ResultClass.BACKEND_429,
            false,
            1,
            4_000,
            OptionalLong.of(30_000));

    assertThat(d.retry()).isFalse();
    assertThat(d.reason()).isEqualTo("Retry-After (30000 ms) exceeds the budget left (4000 ms)");
  }

  @Test
  void doesNotStartAnAttemptWithoutBudget() {
    RetryDecision d =
        decide(rule(Effect.READ_ONLY), ResultClass.TIMEOUT, false, 1, 100, OptionalLong.empty());

    assertThat(d.retry()).isFalse();
    assertThat(d.reason()).startsWith("no budget left");
  }

  @Test
  void anOpenCircuitVetoesARetryWithoutSpendingTheRetryBudget() {
    java.util.concurrent.atomic.AtomicInteger asked =
        new java.util.concurrent.atomic.AtomicInteger();
    RetryDecision allowed = new RetryDecision(true, 100, "retry 1 after backend_503");

    RetryDecision vetoed =
        RetryDecider.withVetoes(allowed, true, () -> asked.incrementAndGet() > 0);

    assertThat(vetoed.retry()).isFalse();
    assertThat(vetoed.reason()).isEqualTo("the circuit opened");
    assertThat(asked).hasValue(0);
  }

  @Test
  void aSpentRetryBudgetVetoesARetry() {
    RetryDecision vetoed =
        RetryDecider.withVetoes(
            new RetryDecision(true, 100, "retry 1 after backend_503"), false, () -> false);

    assertThat(vetoed.retry()).isFalse();
    assertThat(vetoed.reason()).isEqualTo("the sidecar-wide retry budget is spent");
  }

  @Test
  void aRetryNothingStopsKeepsItsDelayAndReasonAndSpendsOneRetry() {
    java.util.concurrent.atomic.AtomicInteger asked =
        new java.util.concurrent.atomic.AtomicInteger();
    RetryDecision allowed = new RetryDecision(true, 100, "retry 1 after backend_503");

    assertThat(RetryDecider.withVetoes(allowed, false, () -> asked.incrementAndGet() > 0))
        .isEqualTo(allowed);
    assertThat(asked).hasValue(1);
  }

  @Test
  void aDecisionNotToRetryIsKeptAndAsksNothing() {
    java.util.concurrent.atomic.AtomicInteger asked =
        new java.util.concurrent.atomic.AtomicInteger();
    RetryDecision no = new RetryDecision(false, 0, "maxAttempts (1) reached");

    assertThat(RetryDecider.withVetoes(no, true, () -> asked.incrementAndGet() > 0)).isEqualTo(no);
    assertThat(asked).hasValue(0);
  }
}
