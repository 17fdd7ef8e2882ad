package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SidecarCountersTest {

  private static final String SCRAPE =
      """
      # HELP jvm_gc_memory_allocated_bytes_total Incremented for an increase in the size of the (young) heap memory pool
      # TYPE jvm_gc_memory_allocated_bytes_total counter
      jvm_gc_memory_allocated_bytes_total 2.097152E7
      # HELP jvm_gc_pause_seconds Time spent in GC pause
      jvm_gc_pause_seconds_sum{action="end of minor GC",cause="Allocation Failure",gc="Copy"} 0.004
      jvm_gc_pause_seconds_sum{action="end of major GC",cause="System.gc()",gc="MarkSweepCompact"} 0.010
      # HELP jvm_compilation_time_ms_total The approximate accumulated elapsed time spent in compilation
      # TYPE jvm_compilation_time_ms_total counter
      jvm_compilation_time_ms_total{compiler="HotSpot 64-Bit Tiered Compilers"} 1234.0
      """;

  @Test
  void readsAllocationGcTimeAndTheQuotaChecksThatWaited() {
    LoadBench.SidecarCounters counters =
        LoadBench.SidecarCounters.of(
            SCRAPE
                + """
        # HELP toolgate_quota_waits_total Quota checks that waited for a round trip to the shared state
        # TYPE toolgate_quota_waits_total counter
        toolgate_quota_waits_total 37.0
        """);

    // No jvm_memory_allocated_bytes_total (a compared build from before it): the GC's counter.
    assertThat(counters.allocatedBytes()).isEqualTo(20_971_520);
    assertThat(counters.exactAllocation()).isFalse();
    assertThat(counters.gcMillis()).isCloseTo(14, within(1e-9));
    assertThat(counters.quotaWaits()).isEqualTo(37);
    assertThat(counters.compileMillis()).isEqualTo(1234);
  }

  @Test
  void countsTheQuotaChecksThatWaitedBetweenTwoScrapesPerThousandCalls() {
    LoadBench.SidecarCounters before =
        LoadBench.SidecarCounters.of(SCRAPE + "toolgate_quota_waits_total 80.0\n");
    LoadBench.SidecarCounters after =
        LoadBench.SidecarCounters.of(SCRAPE + "toolgate_quota_waits_total 549.0\n");

    assertThat(after.since(before).quotaWaitsPerThousand(29_682)).isCloseTo(15.8, within(0.05));
  }

  @Test
  void hasNoQuotaWaitsWhereEitherScrapeHasNoSuchCounterOrNoCallWasMade() {
    // Local state, or a target that is not a sidecar: "-", not 0.
    LoadBench.SidecarCounters withWaits =
        LoadBench.SidecarCounters.of(SCRAPE + "toolgate_quota_waits_total 5.0\n");
    LoadBench.SidecarCounters without = LoadBench.SidecarCounters.of(SCRAPE);

    assertThat(without.since(without).quotaWaitsPerThousand(1_000)).isNaN();
    assertThat(withWaits.since(LoadBench.SidecarCounters.NONE).quotaWaitsPerThousand(1_000))
        .isNaN();
    assertThat(withWaits.since(withWaits).quotaWaitsPerThousand(0)).isNaN();
  }

  @Test
  void readsTheExactAllocationWhereTheSidecarReportsIt() {
    // The GC's counter moves an eden at a time; the threads' total is what was allocated.
    LoadBench.SidecarCounters counters =
        LoadBench.SidecarCounters.of(
            SCRAPE
                + """
        # HELP jvm_memory_allocated_bytes_total Bytes allocated on the heap by all threads since the JVM started
        # TYPE jvm_memory_allocated_bytes_total counter
        jvm_memory_allocated_bytes_total 2.3456789E7
        """);

    assertThat(counters.allocatedBytes()).isEqualTo(23_456_789);
    assertThat(counters.exactAllocation()).isTrue();
  }

  @Test
  void saysThereIsNoCompileTimeWhereTheSidecarReportsNone() {
    // A compared build from before the metric: "-", not 0.
    String withoutIt =
        SCRAPE.lines().filter(l -> !l.contains("compilation")).collect(Collectors.joining("\n"));

    assertThat(LoadBench.SidecarCounters.of(withoutIt).compileMillis()).isNaN();
  }

  @Test
  void saysThereAreNoQuotaWaitsWhereTheSidecarReportsNone() {
    // A sidecar on local state, or a compared build from before the metric: "-", not 0.
    assertThat(LoadBench.SidecarCounters.of(SCRAPE).quotaWaits()).isNaN();
  }
}
