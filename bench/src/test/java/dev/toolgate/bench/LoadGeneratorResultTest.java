package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LoadGeneratorResultTest {

  private static LoadGenerator.Result result(
      long latencyMicros, long calls, long failed, double seconds) {
    Histogram h = new Histogram(60_000_000L, 3);
    h.recordValueWithCount(latencyMicros, calls);
    return new LoadGenerator.Result(h, calls, failed, seconds);
  }

  @Test
  void addsTurnsIntoOneResultWithTheirCallsTimeAndLatencies() {
    LoadGenerator.Result first = result(1_000, 300, 1, 1.0);
    LoadGenerator.Result second = result(3_000, 100, 2, 1.5);

    LoadGenerator.Result both = first.plus(second);

    assertThat(both.completed()).isEqualTo(400);
    assertThat(both.failed()).isEqualTo(3);
    assertThat(both.throughput()).isEqualTo(400 / 2.5);
    assertThat(both.latencyMicros().getTotalCount()).isEqualTo(400);
    assertThat(both.latencyMicros().getValueAtPercentile(50)).isBetween(999L, 1_001L);
    assertThat(both.latencyMicros().getValueAtPercentile(99)).isBetween(2_998L, 3_002L);
    assertThat(first.latencyMicros().getTotalCount())
        .as("the turns themselves unchanged")
        .isEqualTo(300);
  }

  @Test
  void keepsEveryCallOfBothTurnsInOrderWithItsDueTimeAndLatency() {
    Histogram h = new Histogram(60_000_000L, 3);
    LoadGenerator.Result first =
        new LoadGenerator.Result(
            h, 2, 0, 1.0, new LoadGenerator.Calls(new long[] {10, 20}, new long[] {1_000, 1_200}));
    LoadGenerator.Result second =
        new LoadGenerator.Result(
            h,
            0,
            1,
            1.0,
            new LoadGenerator.Calls(new long[] {30}, new long[] {LoadGenerator.Calls.FAILED}));

    LoadGenerator.Calls both = first.plus(second).calls();

    assertThat(both.dueNanos()).containsExactly(10, 20, 30);
    assertThat(both.latencyMicros()).containsExactly(1_000, 1_200, LoadGenerator.Calls.FAILED);
    assertThat(result(1_000, 5, 0, 1.0).calls().count())
        .as("a saturation turn keeps none")
        .isZero();
  }

  @Test
  void refusesDueTimesWithoutALatencyEach() {
    assertThatThrownBy(() -> new LoadGenerator.Calls(new long[] {1, 2}, new long[] {3}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a call's due time and latency come in pairs, got 2 due times and 1 latencies");
  }
}
