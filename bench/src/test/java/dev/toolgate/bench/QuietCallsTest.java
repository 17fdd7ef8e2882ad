package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class QuietCallsTest {

  private static final long MS = 1_000_000;

  private static final MemoryReclaim.Stalls ONE_STALL =
      new MemoryReclaim.Stalls(List.of(new MemoryReclaim.Burst(100 * MS, 120 * MS, 17 * MS)));

  @Test
  void leavesOutTheCallsDueNearAStallAndCountsFailedCallsInNeither() {
    LoadGenerator.Calls calls =
        new LoadGenerator.Calls(
            new long[] {50 * MS, 97 * MS, 110 * MS, 124 * MS, 130 * MS, 200 * MS},
            new long[] {1_000, 9_000, 21_000, LoadGenerator.Calls.FAILED, 1_100, 1_200});

    FixedRates.Quiet quiet = FixedRates.Quiet.of(calls, ONE_STALL, 5 * MS);

    assertThat(quiet.calls()).isEqualTo(5);
    assertThat(quiet.leftOut()).isEqualTo(2);
    assertThat(quiet.leftOutShare()).isCloseTo(0.4, within(1e-9));
    assertThat(quiet.latencyMicros().getTotalCount()).isEqualTo(3);
    assertThat(quiet.latencyMicros().getMaxValue()).isBetween(1_199L, 1_201L);
  }

  @Test
  void keepsEveryCallWhereTheReclaimWasNotWatched() {
    LoadGenerator.Calls calls = new LoadGenerator.Calls(new long[] {110 * MS}, new long[] {21_000});

    FixedRates.Quiet quiet =
        FixedRates.Quiet.of(calls, new MemoryReclaim.Stalls(List.of()), 5 * MS);

    assertThat(quiet.leftOut()).isZero();
    assertThat(quiet.latencyMicros().getTotalCount()).isEqualTo(1);
  }

  @Test
  void saysWhyTheReclaimWasNotWatched() {
    assertThat(FixedRates.reclaimLine(MemoryReclaim.NONE, 0, List.of(), 0, 0, 1, null))
        .isEqualTo("memory reclaim: not watched (--reclaim-margin 0); quiet+p99 not read");
    assertThat(FixedRates.reclaimLine(MemoryReclaim.NONE, 5, List.of(), 0, 0, 1, null))
        .isEqualTo(
            "memory reclaim: no kdamond or kswapd thread readable in /proc; quiet+p99 not read");
  }

  @Test
  void namesTheStallsTheirCpuAndWhatTheQuietReadingLeftOut() {
    MemoryReclaim watched = new MemoryReclaim(List.of("kdamond.0"), List.of(), System::nanoTime);
    Histogram kept = new Histogram(3);
    kept.recordValueWithCount(1_200, 92);
    kept.recordValue(2_100);
    FixedRates.Quiet direct = new FixedRates.Quiet(kept, 7, 100);

    String line =
        FixedRates.reclaimLine(
            watched,
            5,
            List.of(
                new MemoryReclaim.Burst(0, 20 * MS, 17 * MS),
                new MemoryReclaim.Burst(540 * MS, 560 * MS, 21 * MS),
                new MemoryReclaim.Burst(1080 * MS, 1090 * MS, 9 * MS)),
            30 * MS,
            10 * MS,
            1_000 * MS,
            direct);

    assertThat(line)
        .isEqualTo(
            "memory reclaim (kdamond.0) in these slices: 3 stalls (bursts of 1 ms of CPU or more),"
                + " 17 ms of CPU each at the median, 3.0 % of a core in all; quiet+p99 leaves out the calls due within 5 ms"
                + " of a stall (7.0 % of direct's, whose p99 without them is 2.101 ms); the watch cost this process 1.00 % of a core");
  }
}
