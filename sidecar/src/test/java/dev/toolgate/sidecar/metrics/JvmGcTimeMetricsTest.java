package dev.toolgate.sidecar.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class JvmGcTimeMetricsTest {

  private static double sample(String scrape, String name, String gc) {
    String prefix = name + "{gc=\"" + gc + "\"} ";
    String line = scrape.lines().filter(l -> l.startsWith(prefix)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + prefix + "in\n" + scrape));
    return Double.parseDouble(line.substring(prefix.length()));
  }

  private static double sample(String scrape, String name) {
    String line = scrape.lines().filter(l -> l.startsWith(name + " ")).findFirst()
        .orElseThrow(() -> new AssertionError("no " + name + " in\n" + scrape));
    return Double.parseDouble(line.substring(name.length() + 1));
  }

  private static MemoryPoolMXBean oldGeneration() {
    return ManagementFactory.getMemoryPoolMXBeans().stream().filter(JvmGcTimeMetrics::isOldGeneration)
        .findFirst().orElseThrow();
  }

  @Test
  void reportsEachCollectorsCollectionsAndTheirTimeAsItsMXBeanCountsThem() {
    ToolgateMetrics metrics = ToolgateMetrics.create();
    System.gc();

    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      long countBefore = collector.getCollectionCount();
      long msBefore = collector.getCollectionTime();
      String scrape = metrics.scrape();
      long countAfter = collector.getCollectionCount();
      long msAfter = collector.getCollectionTime();

      assertThat(sample(scrape, "jvm_gc_pause_seconds_count", collector.getName()))
          .as(collector.getName()).isBetween((double) countBefore, (double) countAfter);
      assertThat(sample(scrape, "jvm_gc_pause_seconds_sum", collector.getName()))
          .as(collector.getName()).isBetween(msBefore / 1000.0, msAfter / 1000.0);
    }
    assertThat(ManagementFactory.getGarbageCollectorMXBeans())
        .anySatisfy(c -> assertThat(c.getCollectionCount()).isPositive());
  }

  @Test
  void reportsTheOldGenerationAsItsLastCollectionLeftIt() {
    ToolgateMetrics metrics = ToolgateMetrics.create();
    MemoryPoolMXBean old = oldGeneration();

    // A collection may come between the pool's reading and the scrape's: read until both agree.
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      System.gc();
      long used = old.getCollectionUsage().getUsed();
      String scrape = metrics.scrape();
      assertThat(sample(scrape, "jvm_gc_live_data_size_bytes")).isEqualTo((double) used).isPositive();
      assertThat(sample(scrape, "jvm_gc_max_data_size_bytes")).isEqualTo((double) old.getUsage().getMax());
    });
  }
}
