package dev.toolgate.sidecar.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sidecar's Prometheus metrics. Names start with {@code toolgate_}; labels carry only names the
 * policy declares (tools the policy does not name share the label {@value #UNLISTED_TOOL}), so an
 * agent cannot blow up the series count by inventing tool names.
 *
 * <ul>
 *   <li>{@code toolgate_calls_total{upstream,tool,result}}: tool calls, by final result
 *   <li>{@code toolgate_attempts_total{upstream,tool,result}}: attempts, retries included
 *   <li>{@code toolgate_attempt_duration_seconds{upstream,tool,result}}: attempt latency histogram
 *   <li>{@code toolgate_retries_total{upstream,tool,result}}: retries, by the result that caused them
 *   <li>{@code toolgate_timeouts_total{upstream,tool,layer}}: timeouts, by the layer that expired
 *   <li>{@code toolgate_denials_total{upstream,tool,code}}: calls the policy refused
 *   <li>{@code toolgate_shadow_decisions_total{upstream,tool,would}}: what shadow mode would have done
 *   <li>{@code toolgate_breaker_state{breaker}}, {@code toolgate_breaker_transitions_total{breaker,to}},
 *       {@code toolgate_breaker_rejections_total{breaker}}: circuit breakers
 *   <li>{@code toolgate_quota_blocks_total{limit}}: calls refused by a quota or the rate limit
 *   <li>{@code toolgate_requests_rejected_total{reason}}: requests refused before any upstream
 *   <li>{@code toolgate_config_reloads_total{outcome}}: reloads applied or rejected
 *   <li>{@code toolgate_config_revision}: the revision of the policy in force
 * </ul>
 */
public final class ToolgateMetrics {

  public static final String UNLISTED_TOOL = "unlisted";

  private final PrometheusMeterRegistry registry;
  private final AtomicLong revision = new AtomicLong();

  private ToolgateMetrics(PrometheusMeterRegistry registry) {
    this.registry = registry;
    Gauge.builder("toolgate.config.revision", revision, AtomicLong::get)
        .description("Revision of the policy in force")
        .register(registry);
  }

  public static ToolgateMetrics create() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    return new ToolgateMetrics(registry);
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** The scrape body in the Prometheus text format. */
  public String scrape() {
    return registry.scrape();
  }

  public void attempt(String upstream, String tool, String result, long nanos) {
    Counter.builder("toolgate.attempts")
        .description("Attempts of tool calls against upstreams, retries included")
        .tags("upstream", upstream, "tool", tool, "result", result)
        .register(registry)
        .increment();
    Timer.builder("toolgate.attempt.duration")
        .description("Duration of one attempt")
        .tags("upstream", upstream, "tool", tool, "result", result)
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(1))
        .maximumExpectedValue(Duration.ofSeconds(30))
        .register(registry)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  public void call(String upstream, String tool, String result) {
    Counter.builder("toolgate.calls")
        .description("Tool calls, by final result")
        .tags("upstream", upstream, "tool", tool, "result", result)
        .register(registry)
        .increment();
  }

  public void retry(String upstream, String tool, String result) {
    Counter.builder("toolgate.retries")
        .description("Retries, by the result class that caused them")
        .tags("upstream", upstream, "tool", tool, "result", result)
        .register(registry)
        .increment();
  }

  public void timeout(String upstream, String tool, String layer) {
    Counter.builder("toolgate.timeouts")
        .description("Timeouts, by the budget layer that expired")
        .tags("upstream", upstream, "tool", tool, "layer", layer)
        .register(registry)
        .increment();
  }

  public void denial(String upstream, String tool, String code) {
    Counter.builder("toolgate.denials")
        .description("Calls the policy refused before the backend")
        .tags("upstream", upstream, "tool", tool, "code", code)
        .register(registry)
        .increment();
  }

  public void shadowDecision(String upstream, String tool, String would) {
    Counter.builder("toolgate.shadow.decisions")
        .description("What enforcement would have done, in shadow mode")
        .tags("upstream", upstream, "tool", tool, "would", would)
        .register(registry)
        .increment();
  }

  public void breakerTransition(String breaker, String to) {
    Counter.builder("toolgate.breaker.transitions")
        .description("Circuit breaker state changes")
        .tags("breaker", breaker, "to", to)
        .register(registry)
        .increment();
  }

  public void breakerRejection(String breaker) {
    Counter.builder("toolgate.breaker.rejections")
        .description("Calls refused because the circuit was open")
        .tags("breaker", breaker)
        .register(registry)
        .increment();
  }

  /** Publishes a breaker's state: 0 closed, 1 half-open, 2 open. */
  public void breakerState(String breaker, java.util.function.Supplier<Number> state) {
    if (registry.find("toolgate.breaker.state").tag("breaker", breaker).gauge() == null) {
      Gauge.builder("toolgate.breaker.state", state)
          .description("Circuit state: 0 closed, 1 half-open, 2 open")
          .tags("breaker", breaker)
          .register(registry);
    }
  }

  /** Calls the other replicas counted in a breaker's window: the merged part of its decision. */
  public void breakerPeerCalls(String breaker, java.util.function.Supplier<Number> calls) {
    if (registry.find("toolgate.breaker.peer.calls").tag("breaker", breaker).gauge() == null) {
      Gauge.builder("toolgate.breaker.peer.calls", calls)
          .description("Calls in the other replicas' windows for this breaker")
          .tags("breaker", breaker)
          .register(registry);
    }
  }

  public void quotaBlock(String limit) {
    Counter.builder("toolgate.quota.blocks")
        .description("Calls refused by a quota or the rate limit")
        .tags("limit", limit)
        .register(registry)
        .increment();
  }

  /** 1 while the shared state (Hazelcast) answers, 0 while the sidecar serves on local state. */
  public void sharedState(java.util.function.Supplier<Number> up) {
    Gauge.builder("toolgate.shared.state.up", up)
        .description("1 when the shared state answers, 0 when serving on local state")
        .register(registry);
  }

  public void notification(String outcome) {
    Counter.builder("toolgate.notifications")
        .description("Write-quota block notifications sent to the webhook")
        .tags("outcome", outcome)
        .register(registry)
        .increment();
  }

  public void rejected(String reason) {
    Counter.builder("toolgate.requests.rejected")
        .description("Requests refused by the sidecar before reaching an upstream")
        .tags("reason", reason)
        .register(registry)
        .increment();
  }

  public void configReload(boolean applied) {
    Counter.builder("toolgate.config.reloads")
        .description("Configuration reloads, applied or rejected (the last good one stays)")
        .tags("outcome", applied ? "applied" : "rejected")
        .register(registry)
        .increment();
  }

  public void configRevision(long value) {
    revision.set(value);
  }
}
