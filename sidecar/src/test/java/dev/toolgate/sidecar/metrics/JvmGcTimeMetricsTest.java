package dev.toolgate.sidecar.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JvmGcTimeMetricsTest {

  private static double sample(String scrape, String name, String gc) {
    String prefix = name + "{gc=\"" + gc + "\"} ";
    String line =
        scrape
            .lines()
            .filter(l -> l.startsWith(prefix))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no " + prefix + "in\n" + scrape));
    return Double.parseDouble(line.substring(prefix.length()));
  }

  private static double sample(String scrape, String name) {
    String line =
        scrape
            .lines()
            .filter(l -> l.startsWith(name + " "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no " + name + " in\n" + scrape));
    return Double.parseDouble(line.substring(name.length() + 1));
  }

  private static MemoryPoolMXBean oldGeneration() {
    return ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(JvmGcTimeMetrics::isOldGeneration)
        .findFirst()
        .orElseThrow();
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
          .as(collector.getName())
          .isBetween((double) countBefore, (double) countAfter);
      // Milliseconds converted to seconds in floating point: a nanosecond's margin for rounding.
      assertThat(sample(scrape, "jvm_gc_pause_seconds_sum", collector.getName()))
          .as(collector.getName())
          .isBetween(msBefore / 1000.0 - 1e-9, msAfter / 1000.0 + 1e-9);
    }
    assertThat(ManagementFactory.getGarbageCollectorMXBeans())
        .anySatisfy(c -> assertThat(c.getCollectionCount()).isPositive());
  }

  @Test
  void reportsTheOldGenerationAsItsLastCollectionLeftIt() {
    ToolgateMetrics metrics = ToolgateMetrics.create();
    MemoryPoolMXBean old = oldGeneration();

    // A collection may come between the pool's reading and the scrape's: read until both agree.
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              System.gc();
              long used = old.getCollectionUsage().getUsed();
              String scrape = metrics.scrape();
              assertThat(sample(scrape, "jvm_gc_live_data_size_bytes"))
                  .isEqualTo((double) used)
                  .isPositive();
              assertThat(sample(scrape, "jvm_gc_max_data_size_bytes"))
                  .isEqualTo((double) old.getUsage().getMax());
            });
  }

  /** A memory pool that answers the four questions the binder asks with {@code answers}. */
  private static MemoryPoolMXBean pool(Map<String, Object> answers) {
    return (MemoryPoolMXBean)
        Proxy.newProxyInstance(
            MemoryPoolMXBean.class.getClassLoader(),
            new Class<?>[] {MemoryPoolMXBean.class},
            (proxy, method, args) -> {
              if (!answers.containsKey(method.getName())) {
                throw new UnsupportedOperationException(method.getName());
              }
              return answers.get(method.getName());
            });
  }

  @Test
  void reportsTheOldGenerationAfterItsLastCollectionNotAsItIsNow() {
    MemoryPoolMXBean eden = pool(Map.of("getName", "Eden Space", "getType", MemoryType.HEAP));
    MemoryPoolMXBean tenured =
        pool(
            Map.of(
                "getName",
                "Tenured Gen",
                "getType",
                MemoryType.HEAP,
                "getUsage",
                new MemoryUsage(16L << 20, 30L << 20, 32L << 20, 48L << 20),
                "getCollectionUsage",
                new MemoryUsage(16L << 20, 12L << 20, 32L << 20, 48L << 20)));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();

    new JvmGcTimeMetrics(List.of(), List.of(eden, tenured)).bindTo(registry);

    assertThat(registry.get("jvm.gc.live.data.size").gauge().value()).isEqualTo(12L << 20);
    assertThat(registry.get("jvm.gc.max.data.size").gauge().value()).isEqualTo(48L << 20);
  }
}
