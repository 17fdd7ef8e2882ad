package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ArrivalsTest {

  @Test
  void spacesUniformCallsByExactlyOnePeriod() {
    long[] due = Arrivals.UNIFORM.dueNanos(1000, 2, 7);

    assertThat(due).hasSize(2000);
    assertThat(due[0]).isZero();
    assertThat(due[1]).isEqualTo(1_000_000);
    assertThat(due[1999]).isEqualTo(1_999_000_000L);
  }

  @Test
  void spacesPoissonCallsByGapsWhoseMeanIsOnePeriodAndWhoseSpreadIsAsLarge() {
    long[] due = Arrivals.POISSON.dueNanos(1000, 50, 11);
    double[] gaps = new double[due.length - 1];
    for (int k = 1; k < due.length; k++) {
      gaps[k - 1] = due[k] - due[k - 1];
    }
    double mean = Arrays.stream(gaps).average().orElseThrow();
    double sd =
        Math.sqrt(Arrays.stream(gaps).map(g -> (g - mean) * (g - mean)).average().orElseThrow());

    assertThat(due).hasSize(50_000).isSorted();
    assertThat(mean).isCloseTo(1e6, within(0.02e6));
    // An exponential gap's standard deviation equals its mean; a uniform one's is zero.
    assertThat(sd).isCloseTo(1e6, within(0.05e6));
    long inStepWithAMillisecond =
        Arrays.stream(gaps).filter(g -> Math.abs(g - 1e6) < 10_000).count();
    assertThat(inStepWithAMillisecond)
        .as("gaps within 10 us of the 1 ms period")
        .isLessThan(gaps.length / 50);
  }

  @Test
  void givesTheSameScheduleForTheSameSeedAndAnotherForAnother() {
    assertThat(Arrivals.POISSON.dueNanos(500, 1, 3))
        .containsExactly(Arrivals.POISSON.dueNanos(500, 1, 3));
    assertThat(Arrivals.POISSON.dueNanos(500, 1, 3))
        .isNotEqualTo(Arrivals.POISSON.dueNanos(500, 1, 4));
  }

  @Test
  void refusesARateOrLengthThatIsNotPositiveNamingIt() {
    assertThatThrownBy(() -> Arrivals.POISSON.dueNanos(0, 1, 1))
        .hasMessage("a fixed-rate slice needs a positive rate and length, was 0 calls/s for 1 s");
  }

  @Test
  void readsItsOwnSpellingOnly() {
    assertThat(Arrivals.parse("poisson")).isEqualTo(Arrivals.POISSON);
    assertThat(Arrivals.parse("uniform")).isEqualTo(Arrivals.UNIFORM);
    assertThatThrownBy(() -> Arrivals.parse("Poisson"))
        .hasMessage("takes poisson or uniform, was 'Poisson'");
  }
}
