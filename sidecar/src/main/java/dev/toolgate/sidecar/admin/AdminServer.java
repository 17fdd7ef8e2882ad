package dev.toolgate.sidecar.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.toolgate.sidecar.config.ConfigReloader;
import dev.toolgate.sidecar.config.LoadedConfig;
import dev.toolgate.sidecar.metrics.ToolgateMetrics;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin listener: {@code /healthz} (the process serves), {@code /readyz} (routing and
 * configuration are loaded), {@code /metrics} (Prometheus) and {@code /config} (the configuration
 * in force, its revision and hash, and the last refused change). Read-only: nothing here changes
 * state, so nothing here needs authentication yet.
 */
public final class AdminServer {

  private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What {@code /readyz} reports. */
  public record Readiness(boolean ready, JsonObject checks) {}

  private final ToolgateMetrics metrics;
  private final Supplier<Readiness> readiness;
  private final Supplier<LoadedConfig> active;
  private final Supplier<ConfigReloader.Rejection> lastRejection;
  private final String source;
  private HttpServer server;

  public AdminServer(
      ToolgateMetrics metrics,
      Supplier<Readiness> readiness,
      Supplier<LoadedConfig> active,
      Supplier<ConfigReloader.Rejection> lastRejection,
      String source) {
    this.metrics = metrics;
    this.readiness = readiness;
    this.active = active;
    this.lastRejection = lastRejection;
    this.source = source;
  }

  public Future<AdminServer> listen(Vertx vertx, String host, int port) {
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
    if (req.method() != HttpMethod.GET && req.method() != HttpMethod.HEAD) {
      req.response().setStatusCode(405).putHeader(HttpHeaders.ALLOW, "GET, HEAD").end();
      return;
    }
    switch (req.path()) {
      case "/healthz" -> json(req, 200, new JsonObject().put("status", "ok"));
      case "/readyz" -> {
        Readiness r = readiness.get();
        json(req, r.ready() ? 200 : 503, new JsonObject().put("ready", r.ready()).put("checks", r.checks()));
      }
      case "/metrics" ->
          req.response()
              .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")
              .end(metrics.scrape());
      case "/config" -> json(req, 200, config());
      default ->
          json(req, 404, new JsonObject().put("error", "unknown path; try /healthz, /readyz, /metrics, /config"));
    }
  }

  private JsonObject config() {
    LoadedConfig loaded = active.get();
    JsonObject out =
        new JsonObject()
            .put("source", source)
            .put("revision", loaded.config().revision())
            .put("hash", loaded.hash())
            .put("loadedAt", loaded.loadedAt().toString());
    ConfigReloader.Rejection rejection = lastRejection.get();
    if (rejection != null) {
      out.put(
          "lastRejected",
          new JsonObject()
              .put("hash", rejection.hash())
              .put("message", rejection.message())
              .put("at", rejection.at().toString()));
    }
    JsonNode tree = JSON.valueToTree(loaded.config());
    redactUrls(tree);
    try {
      out.put("config", new JsonObject(JSON.writeValueAsString(tree)));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a loaded configuration always renders as JSON", e);
    }
    return out;
  }

  /** Credentials and query strings in URLs (webhook tokens, basic auth) never leave the sidecar. */
  private static void redactUrls(JsonNode node) {
    if (node instanceof ObjectNode object) {
      Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        if (field.getValue().isTextual() && field.getKey().toLowerCase().endsWith("url")) {
          field.setValue(TextNode.valueOf(redact(field.getValue().asText())));
        } else {
          redactUrls(field.getValue());
        }
      }
    } else if (node != null && node.isArray()) {
      node.forEach(AdminServer::redactUrls);
    }
  }

  static String redact(String url) {
    try {
      URI uri = new URI(url);
      return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(),
              uri.getQuery() == null ? null : "redacted", null)
          .toString();
    } catch (URISyntaxException e) {
      return "(unparseable URL)";
    }
  }

  private static void json(HttpServerRequest req, int status, JsonObject body) {
    req.response()
        .setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .end(body.encode());
  }
}
