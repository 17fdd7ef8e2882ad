package dev.toolgate.operator.health;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * What the operator reports on {@code /metrics}, in Prometheus' text format: reconciliations by
 * result and their duration, the work queue's depth, admission reviews by result and their latency,
 * publication failures, whether this replica leads, and how long the served webhook certificate has
 * left. Names start with {@code toolgate_operator_}; no label carries a policy's or a pod's name,
 * so the series stay few.
 */
public final class OperatorMetrics {

  /** Reconciliation results. */
  public static final String APPLIED = "applied";

  public static final String INVALID = "invalid";
  public static final String DELETED = "deleted";
  public static final String ERROR = "error";

  private final MeterRegistry registry;
  private final PrometheusMeterRegistry prometheus;

  private OperatorMetrics(MeterRegistry registry, PrometheusMeterRegistry prometheus) {
    this.registry = registry;
    this.prometheus = prometheus;
  }

  /** Metrics scraped on {@code /metrics}. */
  public static OperatorMetrics prometheus() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    return new OperatorMetrics(registry, registry);
  }

  /** Metrics kept in memory, for tests and tools. */
  public static OperatorMetrics inMemory() {
    return new OperatorMetrics(new SimpleMeterRegistry(), null);
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** The Prometheus text of every metric; empty for in-memory metrics. */
  public String scrape() {
    return prometheus == null ? "" : prometheus.scrape();
  }

  public void reconciled(String result, Duration took) {
    Timer.builder("toolgate_operator_reconcile")
        .description("Reconciliations of ToolPolicies, by result")
        .tag("result", result)
        .register(registry)
        .record(took);
  }

  public void reviewed(String result, Duration took) {
    Timer.builder("toolgate_operator_webhook_review")
        .description("Admission reviews the webhook answered, by result (injected, skipped, ...)")
        .tag("result", result)
        .publishPercentileHistogram()
        .maximumExpectedValue(Duration.ofSeconds(10))
        .register(registry)
        .record(took);
  }

  public void publicationFailed() {
    Counter.builder("toolgate_operator_publication_failures")
        .description("Publications to the state service that failed (retried by the work queue)")
        .register(registry)
        .increment();
  }

  public void queueDepth(Supplier<Number> depth) {
    Gauge.builder("toolgate_operator_queue_depth", depth)
        .description("ToolPolicies waiting in the work queue")
        .strongReference(true)
        .register(registry);
  }

  public void leading(Supplier<Boolean> leading) {
    Gauge.builder("toolgate_operator_leader", () -> leading.get() ? 1 : 0)
        .description("1 while this replica holds the lease and reconciles")
        .strongReference(true)
        .register(registry);
  }

  public void certificateSecondsLeft(Supplier<Number> seconds) {
    Gauge.builder("toolgate_operator_webhook_certificate_seconds_left", seconds)
        .description("Seconds until the webhook certificate this replica serves expires")
        .strongReference(true)
        .register(registry);
  }
}
