package dev.toolgate.state;

import dev.toolgate.sidecar.state.Stores;
import dev.toolgate.sidecar.state.api.StateWire;
import dev.toolgate.sidecar.state.hazelcast.UsageJson;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemKeyCertOptions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state API: HTTPS, a bearer token on every request, every key scoped by the namespace the
 * token proves (never by what the request says). Sidecars count quotas, hold idempotency records
 * and read their namespace's configurations; only the publisher writes configurations.
 */
public final class StateServer {

  private static final Logger LOG = LoggerFactory.getLogger(StateServer.class);

  /** The largest request body: an idempotency record keeps the backend's whole answer. */
  public static final int MAX_BODY_BYTES = 8 * 1024 * 1024;

  private static final Pattern K8S_NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

  private final Stores stores;
  private final Authenticator authenticator;
  private final ConfigStore configs;
  private final Clock clock;
  private final CircuitRoutes circuits;
  private HttpServer server;

  /** Where configurations are published and read, by {@code namespace/policy}. */
  public interface ConfigStore {
    Future<String> get(String key);

    Future<Void> put(String key, String config);

    Future<Void> delete(String key);
  }

  public StateServer(
      Stores stores,
      ConfigStore configs,
      CircuitRoutes circuits,
      Authenticator authenticator,
      Clock clock) {
    this.stores = stores;
    this.circuits = circuits;
    this.configs = configs;
    this.authenticator = authenticator;
    this.clock = clock;
  }

  /** Listens with TLS from the PEM files. */
  public Future<StateServer> listen(
      Vertx vertx, String host, int port, String certPath, String keyPath) {
    return vertx
        .createHttpServer(
            new HttpServerOptions()
                .setHost(host)
                .setPort(port)
                .setSsl(true)
                .setKeyCertOptions(
                    new PemKeyCertOptions().setCertPath(certPath).setKeyPath(keyPath))
                .setHttp2ClearTextEnabled(false))
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
    req.pause();
    String auth = req.getHeader(HttpHeaders.AUTHORIZATION);
    if (auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7) || auth.length() == 7) {
      refuse(req, 401, "a bearer token is required");
      return;
    }
    authenticator
        .authenticate(auth.substring(7).strip())
        .onComplete(
            ar -> {
              if (ar.failed()) {
                LOG.info(
                    "refused {} {} from {}: {}",
                    req.method(),
                    req.path(),
                    req.remoteAddress(),
                    ar.cause().getMessage());
                refuse(req, 401, "token refused: " + ar.cause().getMessage());
              } else {
                route(req, ar.result());
              }
            });
  }

  private void route(HttpServerRequest req, Caller caller) {
    String path = req.path();
    if (path.startsWith(StateWire.CONFIGS)) {
      config(req, caller, path.substring(StateWire.CONFIGS.length()));
      return;
    }
    if (req.method() != HttpMethod.POST) {
      refuse(req, 405, "POST only");
      return;
    }
    if (caller.publisher()) {
      refuse(req, 403, "the publisher publishes configurations; it has no quotas or records");
      return;
    }
    String ns = caller.namespace() + "/";
    switch (path) {
      case StateWire.CONSUME ->
          withBody(
              req,
              b ->
                  stores
                      .quotas()
                      .consume(
                          ns + Fields.name(b, "session"),
                          ns + Fields.name(b, "agent"),
                          Fields.flag(b, "write"),
                          StateWire.quotas(b.getJsonObject("quotas")),
                          clock.millis())
                      .map(StateWire::verdict));
      case StateWire.RAISE ->
          withBody(
              req,
              b ->
                  stores
                      .quotas()
                      .raise(
                          ns + Fields.name(b, "session"),
                          Fields.count(b, "reads"),
                          Fields.count(b, "writes"),
                          clock.millis())
                      .map(u -> new JsonObject(UsageJson.usage(u))));
      case StateWire.RESET ->
          withBody(
              req,
              b ->
                  stores.quotas().reset(ns + Fields.name(b, "session")).map(v -> new JsonObject()));
      case StateWire.BEGIN ->
          withBody(
              req,
              b ->
                  stores
                      .idempotency()
                      .begin(
                          ns + Fields.name(b, "key"),
                          Fields.name(b, "argumentsHash"),
                          Fields.name(b, "correlationId"),
                          clock.millis())
                      .map(
                          r ->
                              new JsonObject()
                                  .put("record", r == null ? null : UsageJson.record(r))));
      case StateWire.COMPLETE ->
          withBody(
              req,
              b ->
                  stores
                      .idempotency()
                      .complete(
                          ns + Fields.name(b, "key"),
                          Fields.text(b, "answer"),
                          b.getString("operationId"),
                          clock.millis())
                      .map(v -> new JsonObject()));
      case StateWire.AMBIGUOUS ->
          withBody(
              req,
              b ->
                  stores
                      .idempotency()
                      .markAmbiguous(
                          ns + Fields.name(b, "key"), b.getString("operationId"), clock.millis())
                      .map(v -> new JsonObject()));
      case StateWire.RELEASE ->
          withBody(
              req,
              b ->
                  stores
                      .idempotency()
                      .release(ns + Fields.name(b, "key"))
                      .map(v -> new JsonObject()));
      default -> {
        if (CircuitRoutes.PATHS.contains(path)) {
          withBody(req, b -> circuits.call(path, caller.namespace(), b));
        } else {
          refuse(req, 404, "no such call: " + path);
        }
      }
    }
  }

  /** {@code GET ns/policy} for a sidecar of that namespace; {@code PUT} for the publisher only. */
  private void config(HttpServerRequest req, Caller caller, String rest) {
    String[] parts = rest.split("/", -1);
    if (parts.length != 2
        || !K8S_NAME.matcher(parts[0]).matches()
        || !K8S_NAME.matcher(parts[1]).matches()) {
      refuse(req, 400, "a configuration is named <namespace>/<policy>, was " + rest);
      return;
    }
    String key = parts[0] + "/" + parts[1];
    if (req.method() == HttpMethod.PUT || req.method() == HttpMethod.DELETE) {
      if (!caller.publisher()) {
        refuse(req, 403, "only the operator publishes configurations; " + caller + " may not");
        return;
      }
      req.resume();
      req.body()
          .compose(
              body ->
                  req.method() == HttpMethod.PUT
                      ? configs.put(key, body.toString(StandardCharsets.UTF_8))
                      : configs.delete(key))
          .onSuccess(v -> req.response().setStatusCode(204).end())
          .onFailure(e -> fail(req, e));
      return;
    }
    if (req.method() != HttpMethod.GET) {
      refuse(req, 405, "GET, PUT or DELETE only");
      return;
    }
    if (!caller.publisher() && !parts[0].equals(caller.namespace())) {
      refuse(
          req,
          403,
          "a sidecar of namespace "
              + caller.namespace()
              + " reads its own namespace's configurations, not "
              + parts[0]
              + "'s");
      return;
    }
    req.resume();
    configs
        .get(key)
        .onSuccess(
            config -> {
              if (config == null) {
                refuse(req, 404, "nothing published under " + key);
                return;
              }
              String etag = "\"" + sha256(config) + "\"";
              if (etag.equals(req.getHeader(HttpHeaders.IF_NONE_MATCH))) {
                req.response().setStatusCode(304).putHeader(HttpHeaders.ETAG, etag).end();
                return;
              }
              req.response()
                  .putHeader(HttpHeaders.CONTENT_TYPE, "application/yaml")
                  .putHeader(HttpHeaders.ETAG, etag)
                  .end(config);
            })
        .onFailure(e -> fail(req, e));
  }

  private void withBody(HttpServerRequest req, Function<JsonObject, Future<JsonObject>> call) {
    String length = req.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (length == null) {
      refuse(req, 411, "a Content-Length is required");
      return;
    }
    long bytes;
    try {
      bytes = Long.parseLong(length);
    } catch (NumberFormatException e) {
      refuse(req, 400, "Content-Length is not a number");
      return;
    }
    if (bytes > MAX_BODY_BYTES) {
      refuse(req, 413, "the body is over " + MAX_BODY_BYTES + " bytes");
      return;
    }
    req.resume();
    req.body()
        .compose(
            body -> {
              JsonObject json;
              try {
                json = parse(body);
                return call.apply(json);
              } catch (IllegalArgumentException | ClassCastException | DecodeException e) {
                return Future.failedFuture(new BadRequest(e.getMessage()));
              }
            })
        .onSuccess(
            answer ->
                req.response()
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(answer.encode()))
        .onFailure(e -> fail(req, e));
  }

  private static JsonObject parse(Buffer body) {
    try {
      return new JsonObject(body);
    } catch (DecodeException e) {
      throw new IllegalArgumentException("the body must be a JSON object");
    }
  }

  /** A request the service cannot act on, named. */
  static final class BadRequest extends RuntimeException {
    BadRequest(String message) {
      super(message, null, false, false);
    }
  }

  private static void fail(HttpServerRequest req, Throwable e) {
    if (e instanceof BadRequest) {
      refuse(req, 400, e.getMessage());
    } else {
      LOG.warn("{} {} failed: {}", req.method(), req.path(), e.toString());
      refuse(req, 503, "the shared state cannot answer: " + e.getMessage());
    }
  }

  private static void refuse(HttpServerRequest req, int status, String error) {
    if (req.response().ended()) {
      return;
    }
    req.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
    if (status == 401) {
      req.response().putHeader("WWW-Authenticate", "Bearer");
    }
    boolean unread = !req.isEnded();
    if (unread) {
      req.response().putHeader(HttpHeaders.CONNECTION, "close");
    }
    Future<Void> written = req.response().end(new JsonObject().put("error", error).encode());
    if (unread) {
      lingerThenClose(req, written);
    }
  }

  /** The most of a refused request's body read and dropped before its connection is closed. */
  static final long MAX_DISCARDED_BYTES = 2L * MAX_BODY_BYTES;

  /**
   * A body left unread would hold the connection (and the caller) forever; closing at once would
   * reset it while the caller still sends, and the caller would never read the refusal. The rest of
   * the body is read and dropped, up to {@link #MAX_DISCARDED_BYTES}, then the connection closes.
   */
  private static void lingerThenClose(HttpServerRequest req, Future<Void> written) {
    long[] discarded = new long[1];
    req.handler(
        chunk -> {
          discarded[0] += chunk.length();
          if (discarded[0] > MAX_DISCARDED_BYTES) {
            req.connection().close();
          }
        });
    req.endHandler(v -> written.onComplete(x -> req.connection().close()));
    req.exceptionHandler(e -> req.connection().close());
    req.resume();
  }

  static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  }
}
