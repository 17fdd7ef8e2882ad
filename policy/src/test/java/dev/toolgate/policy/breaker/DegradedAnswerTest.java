package dev.toolgate.policy.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.BreakerPolicy;
import dev.toolgate.policy.model.Effect;
import dev.toolgate.policy.model.Fallback;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.outcome.ResultClass;
import org.junit.jupiter.api.Test;

class DegradedAnswerTest {

  private static ToolRule rule(Effect effect, Fallback fallback) {
    BreakerPolicy breaker =
        fallback == null
            ? null
            : new BreakerPolicy(null, null, null, null, null, null, null, fallback, null);
    return new ToolRule("t", "api", effect, null, breaker, null, null);
  }

  @Test
  void aReadWhoseBreakerAsksForItAnswersWithTheLastKnownResult() {
    assertThat(DegradedAnswer.of(rule(Effect.READ_ONLY, Fallback.READ_ONLY_DEGRADED_RESPONSE)))
        .isEqualTo(DegradedAnswer.LAST_KNOWN_RESULT);
    assertThat(DegradedAnswer.of(rule(Effect.EXPENSIVE_READ, Fallback.READ_ONLY_DEGRADED_RESPONSE)))
        .isEqualTo(DegradedAnswer.LAST_KNOWN_RESULT);
  }

  @Test
  void aWriteNeverGetsAFallbackWhateverItsBreakerSays() {
    assertThat(
            DegradedAnswer.of(rule(Effect.IDEMPOTENT_WRITE, Fallback.READ_ONLY_DEGRADED_RESPONSE)))
        .isEqualTo(DegradedAnswer.NONE);
    assertThat(
            DegradedAnswer.of(
                rule(Effect.NON_IDEMPOTENT_WRITE, Fallback.READ_ONLY_DEGRADED_RESPONSE)))
        .isEqualTo(DegradedAnswer.NONE);
  }

  @Test
  void aReadWithoutABreakerOrWithoutTheFallbackHasNone() {
    assertThat(DegradedAnswer.of(rule(Effect.READ_ONLY, null))).isEqualTo(DegradedAnswer.NONE);
    assertThat(DegradedAnswer.of(rule(Effect.READ_ONLY, Fallback.NONE)))
        .isEqualTo(DegradedAnswer.NONE);
  }

  @Test
  void onlyASuccessIsKeptForALaterDegradedAnswer() {
    assertThat(DegradedAnswer.LAST_KNOWN_RESULT.keeps(ResultClass.SUCCESS)).isTrue();
    assertThat(DegradedAnswer.LAST_KNOWN_RESULT.keeps(ResultClass.TOOL_ERROR)).isFalse();
    assertThat(DegradedAnswer.LAST_KNOWN_RESULT.keeps(ResultClass.BACKEND_503)).isFalse();
    assertThat(DegradedAnswer.NONE.keeps(ResultClass.SUCCESS)).isFalse();
  }
}
