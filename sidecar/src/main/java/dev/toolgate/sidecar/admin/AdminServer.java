package dev.toolgate.sidecar.admin;

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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin listener: {@code /healthz} (the process serves), {@code /readyz} (routing and
 * configuration are loaded), {@code /metrics} (Prometheus) and {@code /config} (the configuration
 * in force, its revision and hash, and the last refused change). The state-changing calls under
 * {@code /admin/} (raise or reset a session's quota, on every replica through the shared state)
 * need the bearer token of {@code admin.tokenFile}.
 */
public final class AdminServer {

  private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);

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
  private Vertx vertx;
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
    this.vertx = vertx;
    return vertx
        .createHttpServer(
            new HttpServerOptions().setHost(host).setPort(port).setHttp2ClearTextEnabled(false))
        .requestHandler(this::handle)
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
    try {
      route(req);
    } catch (RuntimeException e) {
      LOG.error("admin request {} failed", req.path(), e);
      if (!req.response().ended()) {
        json(req, 500, new JsonObject().put("error", e.toString()));
      }
    }
  }

  private void route(HttpServerRequest req) {
    if (req.method() == HttpMethod.POST && req.path().startsWith("/admin/")) {
      // The body is taken before any asynchronous step, or it would be gone.
      req.body()
          .onSuccess(
              body ->
                  authenticated(req)
                      .onSuccess(
                          ok -> {
                            if (ok) {
                              change(req, body);
                            }
                          }));
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

  /**
   * State-changing calls present the bearer token of {@code admin.tokenFile}; without a configured
   * token they are refused. Compared in constant time.
   */
  /** The shortest token accepted, as the configuration loader checks at load. */
  static final int MIN_TOKEN_CHARS = 16;

  private Future<Boolean> authenticated(HttpServerRequest req) {
    String tokenFile = active.get().config().admin().tokenFile();
    if (tokenFile == null) {
      json(
          req,
          403,
          new JsonObject().put("error", "the admin API is disabled: set admin.tokenFile"));
      return Future.succeededFuture(false);
    }
    return vertx
        .fileSystem()
        .readFile(tokenFile)
        .map(
            buffer -> {
              String token = buffer.toString().strip();
              if (token.length() < MIN_TOKEN_CHARS) {
                json(
                    req,
                    503,
                    new JsonObject()
                        .put("error", "the admin API is closed: admin.tokenFile holds no token"));
                return false;
              }
              String expected = "Bearer " + token;
              String given = req.getHeader(HttpHeaders.AUTHORIZATION);
              boolean ok =
                  given != null
                      && java.security.MessageDigest.isEqual(
                          expected.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                          given.getBytes(java.nio.charset.StandardCharsets.UTF_8));
              if (!ok) {
                LOG.warn("refused an unauthenticated admin call to {}", req.path());
                req.response().putHeader("WWW-Authenticate", "Bearer");
                json(
                    req,
                    401,
                    new JsonObject()
                        .put("error", "a valid bearer token (admin.tokenFile) is required"));
              }
              return ok;
            })
        .otherwise(
            e -> {
              json(
                  req,
                  503,
                  new JsonObject()
                      .put(
                          "error",
                          "the admin API is closed until admin.tokenFile can be read (in a"
                              + " cluster: the toolgate-admin-token Secret)"));
              return false;
            });
  }

  private void change(HttpServerRequest req, io.vertx.core.buffer.Buffer body) {
    JsonObject in;
    try {
      in = body.length() == 0 ? new JsonObject() : body.toJsonObject();
    } catch (RuntimeException e) {
      json(req, 400, new JsonObject().put("error", "the body must be a JSON object"));
      return;
    }
    String session = in.getString("session");
    if (session == null || session.isBlank()) {
      json(req, 400, new JsonObject().put("error", "'session' is required"));
      return;
    }
    switch (req.path()) {
      case "/admin/quotas/raise" -> {
        int reads = in.getInteger("reads", 0);
        int writes = in.getInteger("writes", 0);
        if (reads < 0 || writes < 0 || reads + writes == 0) {
          json(
              req, 400, new JsonObject().put("error", "give 'reads' and/or 'writes' (> 0) to add"));
          return;
        }
        quotas
            .raise(session, reads, writes, clock.millis())
            .onSuccess(
                u -> {
                  LOG.info(
                      "admin raised the quota of session {} by {} reads, {} writes",
                      session,
                      reads,
                      writes);
                  json(
                      req,
                      200,
                      new JsonObject()
                          .put("session", session)
                          .put("reads", u.reads())
                          .put("writes", u.writes())
                          .put("extraReads", u.extraReads())
                          .put("extraWrites", u.extraWrites()));
                })
            .onFailure(e -> json(req, 503, new JsonObject().put("error", e.getMessage())));
      }
      case "/admin/quotas/reset" ->
          quotas
              .reset(session)
              .onSuccess(
                  v -> {
                    LOG.info("admin reset the quota of session {}", session);
                    json(req, 200, new JsonObject().put("session", session).put("reset", true));
                  })
              .onFailure(e -> json(req, 503, new JsonObject().put("error", e.getMessage())));
      default ->
          json(
              req,
              404,
              new JsonObject()
                  .put(
                      "error",
                      "unknown admin call; try /admin/quotas/raise or /admin/quotas/reset"));
    }
  }

  private JsonObject config() {
    return ConfigView.of(active.get(), lastRejection.get(), configFile, trust);
  }

  private static void json(HttpServerRequest req, int status, JsonObject body) {
    req.response()
        .setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .end(body.encode());
  }
}
