package dev.toolgate.policy.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.idempotency.DuplicateDecision.Verdict;
import org.junit.jupiter.api.Test;

class DuplicateDecisionTest {

  private static IdempotencyRecord record(RecordState state) {
    return new IdempotencyRecord(state, "h1", "tg-1", "{}", "op-1", 0);
  }

  @Test
  void proceedsOnAFreshKey() {
    assertThat(DuplicateDecision.of(null, "h1").verdict()).isEqualTo(Verdict.PROCEED);
  }

  @Test
  void refusesASecondCallWhileTheFirstRuns() {
    DuplicateDecision d = DuplicateDecision.of(record(RecordState.IN_FLIGHT), "h1");

    assertThat(d.verdict()).isEqualTo(Verdict.DUPLICATE_IN_FLIGHT);
    assertThat(d.reason()).contains("tg-1");
  }

  @Test
  void replaysACompletedWriteAndNeverRewritesAnAmbiguousOne() {
    assertThat(DuplicateDecision.of(record(RecordState.COMPLETED), "h1").verdict())
        .isEqualTo(Verdict.REPLAY);
    assertThat(DuplicateDecision.of(record(RecordState.AMBIGUOUS), "h1").verdict())
        .isEqualTo(Verdict.AMBIGUOUS);
  }

  @Test
  void refusesTheSameKeyWithOtherArguments() {
    assertThat(DuplicateDecision.of(record(RecordState.COMPLETED), "h2").verdict())
        .isEqualTo(Verdict.ARGUMENTS_MISMATCH);
  }
}
