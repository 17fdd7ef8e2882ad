package dev.toolgate.sidecar.admin;

import dev.toolgate.sidecar.ConnectionGuard;
import dev.toolgate.sidecar.LastResort;
import dev.toolgate.sidecar.config.ConfigReloader;
import dev.toolgate.sidecar.config.LoadedConfig;
import dev.toolgate.sidecar.metrics.ToolgateMetrics;
import dev.toolgate.sidecar.state.QuotaStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;

/**
 * The admin listener: {@code /healthz} (the process serves), {@code /readyz} (routing and
 * configuration are loaded), {@code /metrics} (Prometheus) and {@code /config} (the configuration
 * in force, its revision and hash, and the last refused change). The state-changing calls under
 * {@code /admin/} (raise or reset a session's quota, on every replica through the shared state)
 * need the bearer token of {@code admin.tokenFile}.
 */
public final class AdminServer {

  /** What {@code /readyz} reports. */
  public record Readiness(boolean ready, JsonObject checks) {}

  private final ToolgateMetrics metrics;
  private final Supplier<Readiness> readiness;
  private final Supplier<LoadedConfig> active;
  private final Supplier<ConfigReloader.Rejection> lastRejection;
  private final String configFile;
  private final String trust;
  private final QuotaStore quotas;
  private final java.time.Clock clock;
  private final LastResort lastResort = LastResort.admin();
  private AdminChanges changes;
  private HttpServer server;

  public AdminServer(
      ToolgateMetrics metrics,
      Supplier<Readiness> readiness,
      Supplier<LoadedConfig> active,
      Supplier<ConfigReloader.Rejection> lastRejection,
      String configFile,
      String trust,
      QuotaStore quotas,
      java.time.Clock clock) {
    this.metrics = metrics;
    this.readiness = readiness;
    this.active = active;
    this.lastRejection = lastRejection;
    this.configFile = configFile;
    this.trust = trust;
    this.quotas = quotas;
    this.clock = clock;
  }

  public Future<AdminServer> listen(Vertx vertx, String host, int port) {
    this.changes = new AdminChanges(vertx, active, quotas, clock, lastResort);
    var runtime = active.get().config().runtime();
    ConnectionGuard guard = new ConnectionGuard(vertx, "admin", runtime);
    return vertx
        .createHttpServer(
            ConnectionGuard.withIdleTimeout(
                new HttpServerOptions().setHost(host).setPort(port).setHttp2ClearTextEnabled(false),
                runtime))
        .connectionHandler(guard::onConnection)
        .requestHandler(guard.requests(this::handle))
        .listen()
        .map(
            s -> {
              server = s;
              return this;
            });
  }

  public int port() {
    return server.actualPort();
  }

  public Future<Void> close() {
    return server == null ? Future.succeededFuture() : server.close();
  }

  private void handle(HttpServerRequest req) {
    lastResort.guard(req, () -> route(req));
  }

  private void route(HttpServerRequest req) {
    if (req.method() == HttpMethod.POST && req.path().startsWith("/admin/")) {
      changes.handle(req);
      return;
    }
    if (req.method() != HttpMethod.GET && req.method() != HttpMethod.HEAD) {
      req.response().setStatusCode(405).putHeader(HttpHeaders.ALLOW, "GET, HEAD").end();
      return;
    }
    switch (req.path()) {
      case "/healthz" -> json(req, 200, new JsonObject().put("status", "ok"));
      case "/readyz" -> {
        Readiness r = readiness.get();
        json(
            req,
            r.ready() ? 200 : 503,
            new JsonObject().put("ready", r.ready()).put("checks", r.checks()));
      }
      case "/metrics" ->
          req.response()
              .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")
              .end(metrics.scrape());
      case "/config" -> json(req, 200, config());
      default ->
          json(
              req,
              404,
              new JsonObject()
                  .put("error", "unknown path; try /healthz, /readyz, /metrics, /config"));
    }
  }

  private JsonObject config() {
    return ConfigView.of(active.get(), lastRejection.get(), configFile, trust);
  }

  static void json(HttpServerRequest req, int status, JsonObject body) {
    req.response()
        .setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .end(body.encode());
  }
}
