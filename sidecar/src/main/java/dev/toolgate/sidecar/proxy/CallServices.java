package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.retry.RetryBudget;
import dev.toolgate.sidecar.evidence.EventSink;
import dev.toolgate.sidecar.metrics.ToolgateMetrics;
import dev.toolgate.sidecar.notify.WebhookNotifier;
import dev.toolgate.sidecar.state.Breakers;
import dev.toolgate.sidecar.state.IdempotencyStore;
import dev.toolgate.sidecar.state.LastKnownResults;
import dev.toolgate.sidecar.state.QuotaStore;
import dev.toolgate.sidecar.state.SessionAudit;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;

/**
 * What every tool call uses: shared, long-lived, thread-safe. {@code calls} holds the calls under
 * way by {@link IdRegistry#clientIdKey}, for the agent's {@code notifications/cancelled}; {@code
 * bodies} bounds what is held whole.
 */
record CallServices(
    Vertx vertx,
    UpstreamClient upstreams,
    IdRegistry ids,
    EventSink events,
    ToolgateMetrics metrics,
    Clock clock,
    IdempotencyStore idempotency,
    IntentRegistry intents,
    Map<String, Promise<JsonObject>> sharedCalls,
    AtomicReference<RetryBudget> retryBudgetInForce,
    DoubleSupplier random,
    Breakers breakers,
    QuotaStore quotas,
    LastKnownResults lastKnown,
    SessionAudit audit,
    WebhookNotifier notifier,
    Map<String, ToolCall> calls,
    HeldBodies bodies) {

  /**
   * The sidecar-wide retry budget of the configuration in force (a reload with new limits starts a
   * new one).
   */
  RetryBudget retryBudget() {
    return retryBudgetInForce.get();
  }
}
