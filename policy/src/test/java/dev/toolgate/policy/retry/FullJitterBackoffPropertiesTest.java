package dev.toolgate.policy.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.Backoff;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class FullJitterBackoffPropertiesTest {

  @Property
  void everyDelayLiesBetweenZeroAndACapThatNeverExceedsTheMaximum(
      @ForAll @LongRange(min = 1, max = 10_000) long initialMs,
      @ForAll @LongRange(min = 0, max = 60_000) long extraMs,
      @ForAll @IntRange(min = 1, max = 100) int retry,
      @ForAll @DoubleRange(min = 0, max = 1, maxIncluded = false) double random) {
    Backoff backoff = new Backoff(initialMs, initialMs + extraMs);

    long cap = FullJitterBackoff.capMs(backoff, retry);
    long delay = FullJitterBackoff.delayMs(backoff, retry, () -> random);

    assertThat(cap).isBetween(Math.min(initialMs, backoff.maxMs()), backoff.maxMs());
    assertThat(delay).isBetween(0L, cap);
  }

  @Property
  void capsNeverShrinkFromOneRetryToTheNext(
      @ForAll @LongRange(min = 1, max = 10_000) long initialMs,
      @ForAll @LongRange(min = 0, max = 60_000) long extraMs,
      @ForAll @IntRange(min = 1, max = 99) int retry) {
    Backoff backoff = new Backoff(initialMs, initialMs + extraMs);

    assertThat(FullJitterBackoff.capMs(backoff, retry + 1))
        .isGreaterThanOrEqualTo(FullJitterBackoff.capMs(backoff, retry));
  }
}
