package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.breaker.CircuitBreaker;
import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.model.RetryBudgetPolicy;
import dev.toolgate.policy.retry.RetryBudget;
import dev.toolgate.sidecar.evidence.EventSink;
import dev.toolgate.sidecar.metrics.ToolgateMetrics;
import dev.toolgate.sidecar.state.Breakers;
import dev.toolgate.sidecar.state.LastKnownResults;
import dev.toolgate.sidecar.state.SessionAudit;
import dev.toolgate.sidecar.state.Stores;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The MCP proxy: routes {@code /mcp/<upstream>} to upstreams and puts every {@code tools/call}
 * through the attempt path. The routing is swapped whole when the configuration reloads.
 */
public final class Proxy {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Proxy.class);

  /** Connections kept per upstream; calls beyond this wait for one. */
  public static final int DEFAULT_POOL_SIZE = 256;

  private static final long ID_EXPIRY_PERIOD_MS = 5_000;

  private final Vertx vertx;
  private final AtomicReference<Routing> routing;
  private final UpstreamClient upstreams;
  private final ProxyHandler handler;
  private final long expiryTimer;
  private final WindowPublisher windows;

  /** How long after an outcome the breakers' windows are published to the other replicas. */
  static final long WINDOW_PUBLISH_DELAY_MS = 250;

  private Proxy(
      Vertx vertx,
      Routing initial,
      EventSink events,
      ToolgateMetrics metrics,
      Clock clock,
      Stores stores) {
    this.vertx = vertx;
    this.routing = new AtomicReference<>(initial);
    long connectTimeoutMs = initial.loaded().config().runtime().connectTimeoutMs();
    this.upstreams =
        new UpstreamClient(
            vertx
                .httpClientBuilder()
                .with(
                    new HttpClientOptions()
                        .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, connectTimeoutMs))
                        .setKeepAlive(true))
                .with(new PoolOptions().setHttp1MaxSize(DEFAULT_POOL_SIZE))
                .build());
    IdRegistry ids = new IdRegistry(clock);
    IntentRegistry intents = new IntentRegistry();
    SessionAudit audit = new SessionAudit();
    this.retryBudget = new AtomicReference<>(retryBudgetOf(initial));
    this.windows =
        WindowPublisher.onVertx(vertx, WINDOW_PUBLISH_DELAY_MS, () -> publishWindows(clock));
    this.breakers =
        new Breakers(
            (name, t) -> {
              metrics.breakerTransition(name, t.to().wireName());
              LOG.warn(
                  "circuit {} {} -> {}: {}",
                  name,
                  t.from().wireName(),
                  t.to().wireName(),
                  t.reason());
            },
            stores.circuits(),
            name -> publishBreakerMetrics(metrics, name, clock),
            windows::changed);
    CallServices services =
        new CallServices(
            vertx,
            upstreams,
            ids,
            events,
            metrics,
            clock,
            stores.idempotency(),
            intents,
            new ConcurrentHashMap<>(),
            retryBudget,
            () -> ThreadLocalRandom.current().nextDouble(),
            breakers,
            stores.quotas(),
            new LastKnownResults(
                LastKnownResults.DEFAULT_CAPACITY, LastKnownResults.DEFAULT_MAX_BYTES),
            audit,
            new dev.toolgate.sidecar.notify.WebhookNotifier(vertx, metrics, clock),
            new ConcurrentHashMap<>(),
            new HeldBodies(vertx, () -> routing.get().loaded().config().runtime()));
    metrics.heldBytes(services.bodies()::heldBytes);
    this.handler =
        new ProxyHandler(
            routing::get,
            upstreams,
            ids,
            new ToolCallHandler(services),
            metrics,
            services.calls(),
            services.bodies());
    this.expiryTimer =
        vertx.setPeriodic(
            ID_EXPIRY_PERIOD_MS,
            t -> {
              long now = clock.millis();
              var policy = routing.get().loaded().config().policy();
              ids.expire(now);
              intents.expire(now, policy.intentWindowSeconds() * 1000L);
              stores.idempotency().expire(now);
              long idleMs = policy.quotas().idleExpirySeconds() * 1000L;
              stores.quotas().expire(now, idleMs);
              audit.expire(now, idleMs);
              routing.get().routes().values().stream()
                  .filter(r -> r.credential() != null)
                  .forEach(r -> r.credential().refresh(vertx));
            });
  }

  private final Breakers breakers;
  private final AtomicReference<RetryBudget> retryBudget;

  private void publishWindows(Clock clock) {
    breakers.publishWindows(clock.millis());
  }

  /** Gauges per breaker name, reading whichever breaker a reload put in place. */
  private void publishBreakerMetrics(ToolgateMetrics metrics, String name, Clock clock) {
    metrics.breakerState(
        name,
        () -> {
          CircuitBreaker b = breakers.get(name);
          return b == null
              ? 0
              : switch (b.state()) {
                case CLOSED -> 0;
                case HALF_OPEN -> 1;
                case OPEN -> 2;
              };
        });
    metrics.breakerPeerCalls(
        name,
        () ->
            breakers
                .shared()
                .peerWindow(name, 0, clock.millis(), breakers.windowSeconds(name))
                .calls());
  }

  public static Proxy create(
      Vertx vertx,
      Routing initial,
      EventSink events,
      ToolgateMetrics metrics,
      Clock clock,
      Stores stores) {
    return new Proxy(vertx, initial, events, metrics, clock, stores);
  }

  public Handler<HttpServerRequest> handler() {
    return handler;
  }

  public Routing routing() {
    return routing.get();
  }

  public void apply(Routing next) {
    Routing previous = routing.getAndSet(next);
    if (!policyOf(next).retryBudget().equals(policyOf(previous).retryBudget())) {
      // New limits take effect at once; the window's counts start afresh with them.
      retryBudget.set(retryBudgetOf(next));
    }
  }

  private static Policy policyOf(Routing routing) {
    return routing.loaded().config().policy();
  }

  private static RetryBudget retryBudgetOf(Routing routing) {
    RetryBudgetPolicy limits = policyOf(routing).retryBudget();
    return new RetryBudget(limits.ratio(), limits.minRetriesPerSecond(), limits.windowSeconds());
  }

  public Future<Void> close() {
    vertx.cancelTimer(expiryTimer);
    windows.close();
    return upstreams.close();
  }
}
