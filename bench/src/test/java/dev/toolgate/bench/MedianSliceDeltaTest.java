package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-slice p99 delta the load table prints next to the pooled one. */
class MedianSliceDeltaTest {

  @Test
  void pairsEachSliceWithDirectsSliceOfTheSameRound() {
    // Direct drifts from 10 to 30 ms; the target is always 2 ms above it.
    List<Double> direct = List.of(10.0, 20.0, 30.0);
    List<Double> target = List.of(12.0, 22.0, 32.0);

    assertThat(FixedRates.medianSliceDelta(target, direct)).isCloseTo(2.0, within(1e-9));
  }

  @Test
  void aStallInOneSliceDoesNotMoveIt() {
    List<Double> direct = List.of(15.0, 16.0, 15.0, 17.0, 16.0);
    List<Double> target = List.of(16.0, 17.0, 95.0, 18.0, 17.0);

    assertThat(FixedRates.medianSliceDelta(target, direct)).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void averagesTheTwoMiddleDeltasOfAnEvenCount() {
    assertThat(
            FixedRates.medianSliceDelta(List.of(1.0, 2.0, 4.0, 8.0), List.of(0.0, 0.0, 0.0, 0.0)))
        .isCloseTo(3.0, within(1e-9));
  }

  @Test
  void isNotANumberWithoutSlices() {
    assertThat(FixedRates.medianSliceDelta(List.of(), List.of())).isNaN();
  }
}
