package dev.toolgate.sidecar.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmCompilationMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The sidecar's Prometheus metrics. Names start with {@code toolgate_}; labels carry only names the
 * policy declares (tools the policy does not name share the label {@value #UNLISTED_TOOL}), so an
 * agent cannot blow up the series count by inventing tool names.
 *
 * <ul>
 *   <li>{@code toolgate_calls_total{upstream,tool,result}}: tool calls, by final result
 *   <li>{@code toolgate_attempts_total{upstream,tool,result}}: attempts, retries included
 *   <li>{@code toolgate_attempt_duration_seconds{upstream,tool,result}}: attempt latency histogram
 *   <li>{@code toolgate_retries_total{upstream,tool,result}}: retries, by the result that caused
 *       them
 *   <li>{@code toolgate_timeouts_total{upstream,tool,layer}}: timeouts, by the layer that expired
 *   <li>{@code toolgate_denials_total{upstream,tool,code}}: calls the policy refused
 *   <li>{@code toolgate_shadow_decisions_total{upstream,tool,would}}: what shadow mode would have
 *       done
 *   <li>{@code toolgate_breaker_state{breaker}}, {@code
 *       toolgate_breaker_transitions_total{breaker,to}}, {@code
 *       toolgate_breaker_rejections_total{breaker}}: circuit breakers
 *   <li>{@code toolgate_quota_blocks_total{limit}}: calls refused by a quota or the rate limit
 *   <li>{@code toolgate_quota_waits_total}: quota checks that waited for a round trip to the shared
 *       state
 *   <li>{@code toolgate_requests_rejected_total{reason}}: requests refused before any upstream
 *   <li>{@code toolgate_config_reloads_total{outcome}}: changes applied, or refused and why
 *   <li>{@code toolgate_config_revision}: the revision of the policy in force
 *   <li>{@code toolgate_events_dropped_total}: attempt events lost because stdout could not keep up
 * </ul>
 */
public final class ToolgateMetrics {

  public static final String UNLISTED_TOOL = "unlisted";

  private final PrometheusMeterRegistry registry;

  /**
   * Meters by name and tag values, so that a call finds its meter with one hash lookup instead of
   * building an id (tags sorted, copied) for the registry on every increment. The key wraps the
   * call's tag array without copying it, and a meter is built only when the lookup misses.
   */
  private final Map<MeterKey, Counter> counters = new ConcurrentHashMap<>();

  private final Map<MeterKey, Timer> timers = new ConcurrentHashMap<>();

  private record MeterKey(String name, List<String> tags) {}

  private final AtomicLong revision = new AtomicLong();
  private volatile LongSupplier eventsDropped = () -> 0;
  private volatile LongSupplier quotaWaits = () -> 0;

  private ToolgateMetrics(PrometheusMeterRegistry registry) {
    this.registry = registry;
    Gauge.builder("toolgate.config.revision", revision, AtomicLong::get)
        .description("Revision of the policy in force")
        .register(registry);
  }

  public static ToolgateMetrics create() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcTimeMetrics().bindTo(registry);
    new JvmCompilationMetrics().bindTo(registry);
    new JvmAllocationMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    return new ToolgateMetrics(registry);
  }

  /** Toolgate's meters alone, in a registry of their own that nothing scrapes (the warm-up's). */
  public static ToolgateMetrics detached() {
    return new ToolgateMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  }

  private void count(String name, String description, String... tags) {
    MeterKey key = new MeterKey(name, Arrays.asList(tags));
    Counter counter = counters.get(key);
    if (counter == null) {
      counter =
          counters.computeIfAbsent(
              key,
              k -> Counter.builder(name).description(description).tags(tags).register(registry));
    }
    counter.increment();
  }

  /** The scrape body in the Prometheus text format. */
  public String scrape() {
    return registry.scrape();
  }

  public void attempt(String upstream, String tool, String result, long nanos) {
    count(
        "toolgate.attempts",
        "Attempts of tool calls against upstreams, retries included",
        "upstream",
        upstream,
        "tool",
        tool,
        "result",
        result);
    MeterKey key = new MeterKey("toolgate.attempt.duration", Arrays.asList(upstream, tool, result));
    Timer timer = timers.get(key);
    if (timer == null) {
      timer =
          timers.computeIfAbsent(
              key,
              k ->
                  Timer.builder("toolgate.attempt.duration")
                      .description("Duration of one attempt")
                      .tags("upstream", upstream, "tool", tool, "result", result)
                      .publishPercentileHistogram()
                      .minimumExpectedValue(Duration.ofMillis(1))
                      .maximumExpectedValue(Duration.ofSeconds(30))
                      .register(registry));
    }
    timer.record(nanos, TimeUnit.NANOSECONDS);
  }

  public void call(String upstream, String tool, String result) {
    count(
        "toolgate.calls",
        "Tool calls, by final result",
        "upstream",
        upstream,
        "tool",
        tool,
        "result",
        result);
  }

  public void retry(String upstream, String tool, String result) {
    count(
        "toolgate.retries",
        "Retries, by the result class that caused them",
        "upstream",
        upstream,
        "tool",
        tool,
        "result",
        result);
  }

  public void timeout(String upstream, String tool, String layer) {
    count(
        "toolgate.timeouts",
        "Timeouts, by the budget layer that expired",
        "upstream",
        upstream,
        "tool",
        tool,
        "layer",
        layer);
  }

  public void denial(String upstream, String tool, String code) {
    count(
        "toolgate.denials",
        "Calls the policy refused before the backend",
        "upstream",
        upstream,
        "tool",
        tool,
        "code",
        code);
  }

  public void shadowDecision(String upstream, String tool, String would) {
    count(
        "toolgate.shadow.decisions",
        "What enforcement would have done, in shadow mode",
        "upstream",
        upstream,
        "tool",
        tool,
        "would",
        would);
  }

  public void breakerTransition(String breaker, String to) {
    count(
        "toolgate.breaker.transitions",
        "Circuit breaker state changes",
        "breaker",
        breaker,
        "to",
        to);
  }

  public void breakerRejection(String breaker) {
    count(
        "toolgate.breaker.rejections",
        "Calls refused because the circuit was open",
        "breaker",
        breaker);
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
    count("toolgate.quota.blocks", "Calls refused by a quota or the rate limit", "limit", limit);
  }

  /** Attempt events the sink could not write (its output too slow or failing). */
  public void eventsDropped(LongSupplier dropped) {
    eventsDropped = dropped;
    // A function counter holds its state object weakly: this object, which lives as long as the
    // registry, not the supplier (which nothing else holds, and the next GC would clear).
    FunctionCounter.builder("toolgate.events.dropped", this, m -> m.eventsDropped.getAsLong())
        .description("Attempt events lost because stdout could not keep up or failed")
        .register(registry);
  }

  /**
   * Quota checks that waited for a round trip to the shared state; the others were answered from a
   * read lease at once. Held like {@link #eventsDropped}: the registry keeps this object, not the
   * supplier.
   */
  public void quotaWaits(LongSupplier waits) {
    quotaWaits = waits;
    FunctionCounter.builder("toolgate.quota.waits", this, m -> m.quotaWaits.getAsLong())
        .description(
            "Quota checks that waited for a round trip to the shared state (the others were answered from a read lease)")
        .register(registry);
  }

  /** Bytes of agent requests and upstream answers the proxy holds whole now. */
  public void heldBytes(java.util.function.Supplier<Number> held) {
    Gauge.builder("toolgate.held.bytes", held)
        .description(
            "Bytes of agent requests and upstream answers held whole now (runtime.maxHeldBytes)")
        .register(registry);
  }

  /** 1 while the shared state (Hazelcast) answers, 0 while the sidecar serves on local state. */
  public void sharedState(java.util.function.Supplier<Number> up) {
    Gauge.builder("toolgate.shared.state.up", up)
        .description("1 when the shared state answers, 0 when serving on local state")
        .register(registry);
  }

  public void notification(String outcome) {
    count(
        "toolgate.notifications",
        "Write-quota block notifications sent to the webhook",
        "outcome",
        outcome);
  }

  public void rejected(String reason) {
    count(
        "toolgate.requests.rejected",
        "Requests refused by the sidecar before reaching an upstream",
        "reason",
        reason);
  }

  /** The outcome of a configuration that was applied. */
  public static final String CONFIG_APPLIED = "applied";

  /**
   * A configuration change, by outcome: {@value #CONFIG_APPLIED}, or why it was refused ({@code
   * invalid}, {@code unsigned}, {@code malformed}, {@code unknown_key}, {@code bad_signature},
   * {@code stale}, {@code downgrade}); the last good one stays.
   */
  public void configReload(String outcome) {
    count(
        "toolgate.config.reloads",
        "Configuration changes, applied or refused with the reason (the last good one stays)",
        "outcome",
        outcome);
  }

  public void configRevision(long value) {
    revision.set(value);
  }
}
