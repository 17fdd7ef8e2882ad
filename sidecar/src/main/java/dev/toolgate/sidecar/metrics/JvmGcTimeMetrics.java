package dev.toolgate.sidecar.metrics;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The collectors' work, read from their MXBeans when scraped: {@code jvm_gc_pause_seconds_count}
 * and {@code _sum} per collector ({@code gc}), and the old generation after its last collection
 * ({@code jvm_gc_live_data_size_bytes}) and at most ({@code jvm_gc_max_data_size_bytes}).
 *
 * <p>Micrometer's {@code JvmGcMetrics} reports the same through a listener on every collection's
 * JMX notification, and a listener makes the JVM build each notification's composite data (every
 * pool's usage before and after) on its notification thread, a cost paid per collection and so, at
 * saturation, per call. Polled, a collection costs nothing and a scrape two reads per collector.
 * What polling cannot give: each collection's cause and its longest pause.
 */
final class JvmGcTimeMetrics implements MeterBinder {

  private final List<GarbageCollectorMXBean> collectors;
  private final List<MemoryPoolMXBean> pools;

  /** This JVM's collectors and memory pools. */
  JvmGcTimeMetrics() {
    this(ManagementFactory.getGarbageCollectorMXBeans(), ManagementFactory.getMemoryPoolMXBeans());
  }

  JvmGcTimeMetrics(List<GarbageCollectorMXBean> collectors, List<MemoryPoolMXBean> pools) {
    this.collectors = List.copyOf(collectors);
    this.pools = List.copyOf(pools);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    for (GarbageCollectorMXBean collector : collectors) {
      FunctionTimer.builder(
              "jvm.gc.pause",
              collector,
              c -> Math.max(0, c.getCollectionCount()),
              c -> Math.max(0, c.getCollectionTime()),
              TimeUnit.MILLISECONDS)
          .tag("gc", collector.getName())
          .description("Time spent in GC pause")
          .register(registry);
    }
    pools.stream()
        .filter(JvmGcTimeMetrics::isOldGeneration)
        .findFirst()
        .ifPresent(
            old -> {
              Gauge.builder("jvm.gc.live.data.size", old, p -> used(p.getCollectionUsage()))
                  .baseUnit(BaseUnits.BYTES)
                  .description("Size of the old generation after its last collection")
                  .register(registry);
              Gauge.builder("jvm.gc.max.data.size", old, p -> p.getUsage().getMax())
                  .baseUnit(BaseUnits.BYTES)
                  .description("Largest size the old generation can grow to")
                  .register(registry);
            });
  }

  /** The long-lived heap pool of the serial, parallel and G1 collectors. */
  static boolean isOldGeneration(MemoryPoolMXBean pool) {
    String name = pool.getName();
    return pool.getType() == MemoryType.HEAP
        && (name.endsWith("Old Gen") || name.equals("Tenured Gen"));
  }

  private static double used(MemoryUsage usage) {
    return usage == null ? Double.NaN : usage.getUsed();
  }
}
