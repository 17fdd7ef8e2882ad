package dev.toolgate.sidecar.warmup;

import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.policy.config.SidecarConfig;
import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.model.SessionQuota;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.model.Upstream;
import dev.toolgate.sidecar.config.LoadedConfig;
import dev.toolgate.sidecar.evidence.EventSink;
import dev.toolgate.sidecar.metrics.ToolgateMetrics;
import dev.toolgate.sidecar.proxy.Proxy;
import dev.toolgate.sidecar.proxy.Routing;
import dev.toolgate.sidecar.state.Stores;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.io.OutputStream;
import java.time.Clock;
import java.util.List;

/**
 * Warms the call path up once the sidecar is ready, so that the JIT compiles it before the agent's
 * first calls instead of during them, when a fresh sidecar's calls are many times slower than its
 * later ones.
 *
 * <p>Algorithm: a second proxy is built from the configuration in force — the same handlers, policy
 * and tool rules — but with every upstream pointed at a {@link StubUpstream} on loopback, quotas
 * lifted, no quota webhook, local state, metrics of its own and an event sink that encodes and
 * discards. A {@link WarmupClient} initializes one session through it and sends {@code calls} read
 * calls ({@value WarmupClient#IN_FLIGHT} at a time) over the configuration's read-only tools, then
 * everything is closed. The agent's first call stops it: a warm-up never competes with the agent
 * for the CPU (calls in flight finish; the path is then as warm as it got). Nothing reaches the
 * agent's upstreams, the shared state, the {@code /metrics} scrape or the trace. Cost: a few
 * seconds of CPU after ready and the resident memory of the code compiled, which the first real
 * calls would otherwise have compiled (figures: docs/performance.md).
 */
public final class Warmup {

  /**
   * What a warm-up did.
   *
   * @param calls the calls it was to send
   * @param answered the calls answered with a result
   * @param millis from its start until all was closed
   * @param stopped whether it was stopped before sending them all (the agent's first call)
   */
  public record Result(int calls, int answered, long millis, boolean stopped) {}

  /** The tool called when the configuration names no read-only tool: the pass-through path. */
  static final String PASS_THROUGH_TOOL = "toolgate_warmup";

  private final Vertx vertx;
  private final LoadedConfig loaded;
  private final int calls;
  private final Clock clock;
  private volatile boolean stopped;

  /** Set once, by {@link #start}. */
  private Future<Result> result;

  private HttpServer stub;
  private HttpServer front;
  private Proxy proxy;
  private EventSink events;
  private WarmupClient client;

  private Warmup(Vertx vertx, LoadedConfig loaded, int calls, Clock clock) {
    this.vertx = vertx;
    this.loaded = loaded;
    this.calls = calls;
    this.clock = clock;
  }

  /**
   * Starts a warm-up of {@code calls} calls; none (off) when 0 or when no upstream is configured.
   */
  public static Warmup start(Vertx vertx, LoadedConfig loaded, int calls, Clock clock) {
    Warmup warmup = new Warmup(vertx, loaded, calls, clock);
    warmup.result = warmup.run();
    return warmup;
  }

  /** Completes when every call answered or failed and all is closed; at once when off. */
  public Future<Result> result() {
    return result;
  }

  /** Completes when the warm-up has ended, whether done, stopped or failed. */
  public Future<Void> ended() {
    return result.<Void>mapEmpty().otherwiseEmpty();
  }

  /** What {@code /readyz} says of it: off, running, done or stopped with its figures, or failed. */
  public String state() {
    if (off()) {
      return "off";
    }
    if (!result.isComplete()) {
      return "running";
    }
    if (result.failed()) {
      return "failed: " + result.cause();
    }
    Result r = result.result();
    return (r.stopped() ? "stopped by the agent's first call: " : "done: ")
        + r.answered()
        + " of "
        + r.calls()
        + " calls answered in "
        + r.millis()
        + " ms";
  }

  private boolean off() {
    return calls <= 0 || loaded.config().policy().upstreams().isEmpty();
  }

  private Future<Result> run() {
    if (off()) {
      return Future.succeededFuture(new Result(0, 0, 0, false));
    }
    long start = System.nanoTime();
    return listen(StubUpstream.handler())
        .compose(
            server -> {
              stub = server;
              events = EventSink.jsonLines(OutputStream.nullOutputStream());
              LoadedConfig warm =
                  stubbed(loaded, "http://127.0.0.1:" + server.actualPort() + "/mcp");
              proxy =
                  Proxy.create(
                      vertx,
                      Routing.of(warm),
                      events,
                      ToolgateMetrics.detached(),
                      clock,
                      Stores.local());
              return listen(proxy.handler());
            })
        .compose(
            server -> {
              front = server;
              client =
                  new WarmupClient(vertx, server.actualPort(), targets(loaded.config().policy()));
              return client.run(calls, () -> stopped);
            })
        .map(
            answered ->
                new Result(
                    calls,
                    answered,
                    (System.nanoTime() - start) / 1_000_000,
                    stopped && answered < calls))
        .eventually(this::closeAll);
  }

  /**
   * Stops sending; calls in flight finish, then everything is closed. Cheap once stopped: a read.
   */
  public void stop() {
    if (!stopped) {
      stopped = true;
    }
  }

  private Future<HttpServer> listen(Handler<HttpServerRequest> handler) {
    return vertx
        .createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
        .requestHandler(handler)
        .listen();
  }

  private Future<Void> closeAll() {
    Future<Void> c = client == null ? Future.succeededFuture() : client.close();
    Future<Void> f = front == null ? Future.succeededFuture() : front.close();
    Future<Void> p = proxy == null ? Future.succeededFuture() : proxy.close();
    Future<Void> s = stub == null ? Future.succeededFuture() : stub.close();
    return Future.join(c, f, p, s)
        .transform(
            ar ->
                events == null
                    ? Future.<Void>succeededFuture()
                    : vertx.executeBlocking(
                        () -> {
                          events.close();
                          return null;
                        }))
        .mapEmpty();
  }

  /**
   * The configuration in force with every upstream at {@code stubUrl}, quotas lifted (still
   * checked, never refusing), no quota webhook and local state.
   */
  static LoadedConfig stubbed(LoadedConfig loaded, String stubUrl) {
    SidecarConfig c = loaded.config();
    Policy p = c.policy();
    Quotas q = p.quotas();
    SessionQuota unlimited = new SessionQuota(Integer.MAX_VALUE, Integer.MAX_VALUE);
    Quotas lifted =
        new Quotas(
            unlimited,
            q.perAgent() == null ? null : unlimited,
            Integer.MAX_VALUE,
            q.idleExpirySeconds(),
            null,
            Integer.MAX_VALUE);
    Policy warm =
        p.withUpstreams(
                p.upstreams().stream()
                    .map(u -> new Upstream(u.name(), stubUrl, null, u.relayPaths()))
                    .toList())
            .withQuotas(lifted);
    SharedStateOptions local =
        new SharedStateOptions(SharedStateOptions.Mode.LOCAL, null, null, null, null, null, null);
    SidecarConfig config =
        new SidecarConfig(
            c.revision(),
            c.listen(),
            c.admin(),
            c.runtime(),
            c.approvals(),
            c.agent(),
            local,
            warm);
    return loaded.with(config);
  }

  /** The read-only tools with their upstreams, or the pass-through tool on the first upstream. */
  static List<WarmupClient.Target> targets(Policy policy) {
    String first = policy.upstreams().get(0).name();
    List<WarmupClient.Target> reads =
        policy.tools().stream()
            .filter(rule -> !rule.effect().isWrite())
            .map(rule -> new WarmupClient.Target(upstreamOf(rule, first), rule.name()))
            .filter(t -> policy.upstream(t.upstream()).isPresent())
            .toList();
    return reads.isEmpty() ? List.of(new WarmupClient.Target(first, PASS_THROUGH_TOOL)) : reads;
  }

  private static String upstreamOf(ToolRule rule, String first) {
    return rule.upstream() == null ? first : rule.upstream();
  }
}
