package dev.toolgate.sidecar.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ToolgateMetricsTest {

  /** Blocks the test allocates, kept so that no compiler can leave the allocation out. */
  private static volatile byte[][] kept;

  private static String line(String scrape, String prefix) {
    return scrape.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse("");
  }

  private static double value(String sample) {
    return Double.parseDouble(sample.substring(sample.lastIndexOf(' ') + 1));
  }

  @Test
  void countsEachSeriesOnceRegisteredAndKeepsSeriesApartByTagValues() {
    ToolgateMetrics metrics = ToolgateMetrics.create();
    for (int i = 0; i < 3; i++) {
      metrics.call("api", "get", "success");
      metrics.attempt("api", "get", "success", 2_000_000);
    }
    metrics.call("api", "get", "timeout");

    String scrape = metrics.scrape();
    assertThat(
            line(scrape, "toolgate_calls_total{result=\"success\",tool=\"get\",upstream=\"api\"}"))
        .endsWith(" 3.0");
    assertThat(
            line(scrape, "toolgate_calls_total{result=\"timeout\",tool=\"get\",upstream=\"api\"}"))
        .endsWith(" 1.0");
    assertThat(
            line(
                scrape,
                "toolgate_attempt_duration_seconds_count{result=\"success\",tool=\"get\",upstream=\"api\"}"))
        .endsWith(" 3");
    assertThat(
            line(
                scrape,
                "toolgate_attempts_total{result=\"success\",tool=\"get\",upstream=\"api\"}"))
        .endsWith(" 3.0");
  }

  @Test
  void reportsTheTimeTheJitCompilersHaveSpent() {
    // The test's own JVM has compiled its way here, so the counter is above zero.
    String sample = line(ToolgateMetrics.create().scrape(), "jvm_compilation_time_ms_total");

    assertThat(value(sample)).isPositive();
  }

  @Test
  void countsTheBytesAThreadAllocatedAfterItHasExited() throws InterruptedException {
    ToolgateMetrics metrics = ToolgateMetrics.create();
    double before = value(line(metrics.scrape(), "jvm_memory_allocated_bytes_total"));
    Thread allocator =
        new Thread(
            () -> {
              byte[][] blocks = new byte[64][];
              for (int i = 0; i < blocks.length; i++) {
                blocks[i] = new byte[64 * 1024];
              }
              kept = blocks;
            });
    allocator.start();
    allocator.join();

    // join() returns once the thread has terminated; the JVM adds its bytes to the exited threads'
    // total as it tears the thread down, which can come a moment later (seen once in CI).
    await("the exited thread's bytes in the total")
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(
                        value(line(metrics.scrape(), "jvm_memory_allocated_bytes_total")) - before)
                    .isGreaterThanOrEqualTo(64 * 64 * 1024));
  }

  @Test
  void reportsTheQuotaChecksThatWaitedForTheSharedState() {
    ToolgateMetrics metrics = ToolgateMetrics.create();
    java.util.concurrent.atomic.AtomicLong waits = new java.util.concurrent.atomic.AtomicLong(7);
    metrics.quotaWaits(waits::get);

    assertThat(line(metrics.scrape(), "toolgate_quota_waits_total")).endsWith(" 7.0");
    waits.set(9);
    assertThat(line(metrics.scrape(), "toolgate_quota_waits_total")).endsWith(" 9.0");
  }

  @Test
  void keepsCountingDroppedEventsAfterAGarbageCollection() {
    ToolgateMetrics metrics = ToolgateMetrics.create();
    java.util.concurrent.atomic.AtomicLong dropped = new java.util.concurrent.atomic.AtomicLong(42);
    metrics.eventsDropped(dropped::get); // a new object that only the metrics hold

    // Collect until a weakly held probe is gone: weak references were processed at least once.
    java.lang.ref.WeakReference<Object> probe = new java.lang.ref.WeakReference<>(new Object());
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(10))
        .until(
            () -> {
              System.gc();
              return probe.get() == null;
            });

    assertThat(line(metrics.scrape(), "toolgate_events_dropped_total")).endsWith(" 42.0");
  }
}
