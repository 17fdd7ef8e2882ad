package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one-call-at-a-time table's "+p50 vs nginx" column. */
class TimesNginxTest {

  @Test
  void givesTheDeltaAsAMultipleOfNginxs() {
    assertThat(OneCallAtATime.timesNginx(0.164, 0.094)).isEqualTo("1.74");
  }

  @Test
  void saysNothingWhereNginxAddedNothingMeasurable() {
    assertThat(OneCallAtATime.timesNginx(0.1, 0.0)).isEqualTo("-");
    assertThat(OneCallAtATime.timesNginx(0.1, -0.02)).isEqualTo("-");
  }

  @Test
  void saysNothingWithoutNginxInTheRun() {
    assertThat(OneCallAtATime.timesNginx(0.1, Double.NaN)).isEqualTo("-");
  }
}
