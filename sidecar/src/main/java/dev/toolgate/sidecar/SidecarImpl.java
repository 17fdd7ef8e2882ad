package dev.toolgate.sidecar;

import dev.toolgate.policy.config.ListenAddress;
import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.sidecar.admin.AdminServer;
import dev.toolgate.sidecar.config.ConfigException;
import dev.toolgate.sidecar.config.ConfigLoader;
import dev.toolgate.sidecar.config.ConfigOrigin;
import dev.toolgate.sidecar.config.ConfigReloader;
import dev.toolgate.sidecar.config.LoadedConfig;
import dev.toolgate.sidecar.metrics.ToolgateMetrics;
import dev.toolgate.sidecar.proxy.Proxy;
import dev.toolgate.sidecar.proxy.Routing;
import dev.toolgate.sidecar.state.Stores;
import dev.toolgate.sidecar.state.api.ApiStores;
import dev.toolgate.sidecar.state.hazelcast.HazelcastStores;
import dev.toolgate.sidecar.warmup.Warmup;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Wires the proxy, the admin listener and the configuration watcher. */
final class SidecarImpl implements Sidecar {

  private static final Logger LOG = LoggerFactory.getLogger(SidecarImpl.class);

  /** How long a shutdown waits to give read leases back: well inside a pod's grace period. */
  private static final long QUOTA_RETURN_TIMEOUT_MS = 2_000;

  private final Vertx vertx;
  private final SidecarOptions options;
  private final ToolgateMetrics metrics = ToolgateMetrics.create();
  private Proxy proxy;
  private HttpServer proxyServer;
  private AdminServer admin;
  private ConfigReloader reloader;
  private volatile boolean ready;
  private Stores stores;
  private HazelcastStores hazelcast;
  private ApiStores api;
  private volatile boolean sharedUp;

  /** Started once ready; every proxy request stops it. */
  private volatile Warmup warmup;

  private SidecarImpl(Vertx vertx, SidecarOptions options) {
    this.vertx = vertx;
    this.options = options;
  }

  static Future<Sidecar> start(Vertx vertx, SidecarOptions options) {
    SidecarImpl sidecar = new SidecarImpl(vertx, options);
    ConfigLoader loader =
        new ConfigLoader(options.clock(), options.trust()).withAgent(options.agentId());
    return vertx
        .executeBlocking(() -> loader.load(options.configFile()))
        .compose(loaded -> sidecar.startSharedState(loaded).map(loaded))
        .compose(sidecar::startWith)
        .map(v -> (Sidecar) sidecar)
        .onFailure(e -> sidecar.close());
  }

  /** Starts the Hazelcast member or client, unless the state is local. */
  private Future<Void> startSharedState(LoadedConfig loaded) {
    SharedStateOptions shared = loaded.config().sharedState();
    if (shared.mode() == SharedStateOptions.Mode.LOCAL) {
      stores = Stores.local();
      sharedUp = true;
      return Future.succeededFuture();
    }
    if (shared.mode() == SharedStateOptions.Mode.API) {
      return ApiStores.start(vertx, shared, up -> sharedUp = up)
          .map(
              started -> {
                api = started;
                stores = started.stores();
                sharedUp = true;
                metrics.sharedState(() -> sharedUp ? 1 : 0);
                LOG.info("shared state: the state service at {}", shared.api().url());
                return null;
              });
    }
    HazelcastStores.podWarning(shared, System.getenv()).ifPresent(LOG::warn);
    return vertx
        .executeBlocking(() -> HazelcastStores.start(vertx, shared, up -> sharedUp = up))
        .map(
            started -> {
              hazelcast = started;
              stores = started.stores();
              metrics.quotaWaits(started.quotaWaits());
              sharedUp = true;
              metrics.sharedState(() -> sharedUp ? 1 : 0);
              LOG.info(
                  "shared state: Hazelcast {} in cluster '{}'",
                  shared.mode().name().toLowerCase(java.util.Locale.ROOT),
                  shared.clusterName());
              return null;
            });
  }

  private Future<Void> startWith(LoadedConfig loaded) {
    proxy =
        Proxy.create(vertx, Routing.of(loaded), options.events(), metrics, options.clock(), stores);
    metrics.configRevision(loaded.config().revision());
    metrics.eventsDropped(options.events()::dropped);
    reloader =
        new ConfigReloader(
            vertx,
            options.configFile(),
            new ConfigLoader(options.clock(), options.trust()).withAgent(options.agentId()),
            loaded,
            new ConfigReloader.Listener() {
              @Override
              public void applied(LoadedConfig next) {
                warnOnListenChange(loaded, next);
                proxy.apply(Routing.of(next));
                metrics.configRevision(next.config().revision());
                metrics.configReload(ToolgateMetrics.CONFIG_APPLIED);
              }

              @Override
              public void rejected(ConfigException problem) {
                metrics.configReload(problem.outcome());
              }
            },
            options.clock());
    admin =
        new AdminServer(
            metrics,
            this::readiness,
            this::activeConfig,
            reloader::lastRejection,
            options.configFile().toString(),
            options.trust().describe(),
            stores.quotas(),
            options.clock());
    ListenAddress listen = loaded.config().listen();
    var adminAt = loaded.config().admin();
    var runtime = loaded.config().runtime();
    ConnectionGuard guard = new ConnectionGuard(vertx, "mcp", runtime);
    return vertx
        .createHttpServer(
            ConnectionGuard.withIdleTimeout(
                new HttpServerOptions()
                    .setHost(listen.host())
                    .setPort(listen.port())
                    .setCompressionSupported(false)
                    // HTTP/1.1 only: the JDK client's h2c upgrade stalled on large bodies here.
                    .setHttp2ClearTextEnabled(false),
                runtime))
        .connectionHandler(guard::onConnection)
        .requestHandler(
            guard.requests(new OriginCheck(listen).guarding(stoppingTheWarmup(proxy.handler()))))
        .listen()
        .compose(
            server -> {
              proxyServer = server;
              return admin.listen(vertx, adminAt.host(), adminAt.port());
            })
        .map(
            a -> {
              reloader.start(loaded.config().runtime().configPollMs());
              String configKey = loaded.config().sharedState().configKey();
              if (api != null && configKey != null) {
                io.vertx.core.Context context = vertx.getOrCreateContext();
                api.follow(
                    configKey,
                    loaded.config().runtime().configPollMs(),
                    bytes ->
                        context.runOnContext(
                            v -> reloader.offer(ConfigOrigin.SHARED_STATE, bytes)));
              }
              if (hazelcast != null && configKey != null) {
                io.vertx.core.Context context = vertx.getOrCreateContext();
                vertx
                    .executeBlocking(
                        () -> {
                          hazelcast.follow(
                              configKey,
                              bytes ->
                                  context.runOnContext(
                                      v -> reloader.offer(ConfigOrigin.SHARED_STATE, bytes)));
                          return null;
                        })
                    .onFailure(
                        e ->
                            LOG.warn(
                                "cannot follow the published configuration: {}", e.toString()));
              }
              ready = true;
              LOG.info(
                  "toolgate sidecar ready: MCP on http://{}:{}/mcp/<upstream>, admin on http://{}:{}",
                  listen.host(),
                  proxyServer.actualPort(),
                  adminAt.host(),
                  admin.port());
              warmUp(loaded);
              return null;
            });
  }

  /** {@code handler}, after stopping the warm-up: an agent's request never competes with it. */
  private final LastResort mcpLastResort = LastResort.mcp();

  private Handler<HttpServerRequest> stoppingTheWarmup(Handler<HttpServerRequest> handler) {
    return req -> {
      Warmup w = warmup;
      if (w != null) {
        w.stop();
      }
      mcpLastResort.guard(req, () -> handler.handle(req));
    };
  }

  /**
   * After ready, in the background: agents are served meanwhile, and a failed warm-up only costs
   * its log line.
   */
  private void warmUp(LoadedConfig loaded) {
    Warmup w =
        Warmup.start(
            vertx,
            loaded,
            options.warmupCalls() != null
                ? options.warmupCalls()
                : loaded.config().runtime().warmupCalls(),
            options.clock());
    warmup = w;
    w.result()
        .onSuccess(
            r -> {
              if (r.calls() > 0) {
                LOG.info(
                    "warm-up {} (a private copy of the proxy and a loopback stub upstream)",
                    w.state());
              }
            })
        .onFailure(
            e ->
                LOG.warn(
                    "warm-up failed (the sidecar serves as usual, its first calls slower): {}",
                    e.toString()));
  }

  private static void warnOnListenChange(LoadedConfig before, LoadedConfig after) {
    if (!Objects.equals(before.config().listen(), after.config().listen())
        || !Objects.equals(before.config().admin(), after.config().admin())) {
      LOG.warn(
          "listen/admin addresses changed in the configuration; they apply at the next restart");
    }
  }

  private AdminServer.Readiness readiness() {
    boolean routes = proxy != null && !proxy.routing().routes().isEmpty();
    boolean listening = proxyServer != null;
    JsonObject checks =
        new JsonObject()
            .put("config", proxy == null ? "not loaded" : "loaded")
            .put("listener", listening ? "bound" : "not bound")
            .put("upstreams", proxy == null ? 0 : proxy.routing().routes().size())
            .put(
                "sharedState",
                hazelcast == null && api == null
                    ? "local"
                    : sharedUp ? "up" : "unreachable (serving on local state)")
            .put("warmup", warmup == null ? "off" : warmup.state());
    return new AdminServer.Readiness(ready && routes && listening, checks);
  }

  @Override
  public int proxyPort() {
    return proxyServer.actualPort();
  }

  @Override
  public int adminPort() {
    return admin.port();
  }

  @Override
  public String mcpUrl(String upstream) {
    return "http://"
        + activeConfig().config().listen().host()
        + ":"
        + proxyPort()
        + "/mcp/"
        + upstream;
  }

  @Override
  public Future<Void> warmedUp() {
    Warmup w = warmup;
    return w == null ? Future.succeededFuture() : w.ended();
  }

  @Override
  public LoadedConfig activeConfig() {
    return proxy.routing().loaded();
  }

  @Override
  public Future<Void> close() {
    ready = false;
    Warmup w = warmup;
    if (w != null) {
      w.stop();
    }
    if (reloader != null) {
      reloader.stop();
    }
    Future<Void> server = proxyServer == null ? Future.succeededFuture() : proxyServer.close();
    Future<Void> adminClosed = admin == null ? Future.succeededFuture() : admin.close();
    Future<Void> client = proxy == null ? Future.succeededFuture() : proxy.close();
    return Future.all(server, adminClosed, client)
        .compose(
            v ->
                stores == null
                    ? Future.<Void>succeededFuture()
                    : stores
                        .quotas()
                        .close()
                        .timeout(QUOTA_RETURN_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                        .recover(
                            e -> {
                              LOG.warn("read leases not given back at shutdown: {}", e.toString());
                              return Future.succeededFuture();
                            }))
        .compose(v -> api == null ? Future.<Void>succeededFuture() : api.close())
        .compose(
            v ->
                hazelcast == null
                    ? Future.succeededFuture()
                    : vertx.executeBlocking(
                        () -> {
                          hazelcast.shutdown();
                          return null;
                        }))
        .eventually(
            () ->
                vertx.executeBlocking(
                    () -> {
                      options.events().close();
                      return null;
                    }))
        .mapEmpty();
  }
}
