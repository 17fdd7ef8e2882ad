package dev.toolgate.policy.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.Backoff;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FullJitterBackoffTest {

  private static final Backoff SEED = new Backoff(250L, 1500L);

  @Test
  void capsDoubleFromTheInitialDelayUpToTheMaximum() {
    assertThat(FullJitterBackoff.capMs(SEED, 1)).isEqualTo(250);
    assertThat(FullJitterBackoff.capMs(SEED, 2)).isEqualTo(500);
    assertThat(FullJitterBackoff.capMs(SEED, 3)).isEqualTo(1000);
    assertThat(FullJitterBackoff.capMs(SEED, 4)).isEqualTo(1500);
    assertThat(FullJitterBackoff.capMs(SEED, 60)).isEqualTo(1500);
  }

  @Test
  void staysWithinZeroAndTheCapForAnyRandomDraw() {
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < 10_000; i++) {
      int retry = 1 + random.nextInt(8);
      long delay = FullJitterBackoff.delayMs(SEED, retry, random::nextDouble);
      assertThat(delay).isBetween(0L, FullJitterBackoff.capMs(SEED, retry));
    }
  }

  @Test
  void spreadsDelaysOverTheWholeIntervalNotAroundTheCap() {
    SplittableRandom random = new SplittableRandom(7);
    long low = 0;
    long high = 0;
    for (int i = 0; i < 10_000; i++) {
      long delay = FullJitterBackoff.delayMs(SEED, 3, random::nextDouble);
      if (delay < 250) {
        low++;
      }
      if (delay > 750) {
        high++;
      }
    }
    assertThat(low).as("a quarter of delays below a quarter of the cap").isBetween(2_200L, 2_800L);
    assertThat(high).isBetween(2_200L, 2_800L);
  }

  @Test
  void reachesBothEndsOfTheInterval() {
    assertThat(FullJitterBackoff.delayMs(SEED, 2, () -> 0.0)).isZero();
    assertThat(FullJitterBackoff.delayMs(SEED, 2, () -> 0.999_999_9)).isEqualTo(500);
  }
}
