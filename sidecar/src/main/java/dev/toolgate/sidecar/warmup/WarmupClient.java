package dev.toolgate.sidecar.warmup;

import dev.toolgate.sidecar.mcp.McpHeaders;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Sends the warm-up's calls through the warm-up proxy: one session per target upstream, then {@code
 * tools/call} requests taken in turn over the targets, {@value #IN_FLIGHT} in flight.
 */
final class WarmupClient {

  /** A read-only tool and the upstream it is called on. */
  record Target(String upstream, String tool) {}

  static final int IN_FLIGHT = 4;
  static final String PROTOCOL_VERSION = "2025-06-18";

  /** About what an agent sends: a few hundred bytes of arguments. */
  private static final String NOTE = "w".repeat(256);

  private final HttpClient http;
  private final int port;
  private final List<Target> targets;

  /**
   * Calls sent one after another; each lane ends when no call is left or the warm-up is stopped.
   */
  private int lanes;

  private int sent;
  private int answered;
  private int done;

  WarmupClient(Vertx vertx, int port, List<Target> targets) {
    this.http =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true),
            new PoolOptions().setHttp1MaxSize(IN_FLIGHT));
    this.port = port;
    this.targets = targets;
  }

  /**
   * Sends {@code calls} calls (fewer once {@code stopped}); the future holds how many were
   * answered.
   */
  Future<Integer> run(int calls, BooleanSupplier stopped) {
    List<Future<String>> sessions = targets.stream().map(t -> initialize(t.upstream())).toList();
    return Future.all(sessions)
        .compose(
            all -> {
              Promise<Integer> finished = Promise.promise();
              lanes = Math.min(IN_FLIGHT, calls);
              for (int i = 0; i < lanes; i++) {
                next(calls, stopped, sessions, finished);
              }
              return finished.future();
            });
  }

  private void next(
      int calls,
      BooleanSupplier stopped,
      List<Future<String>> sessions,
      Promise<Integer> finished) {
    if (sent == calls || stopped.getAsBoolean()) {
      if (++done == lanes) {
        finished.complete(answered);
      }
      return;
    }
    int k = sent++;
    int which = k % targets.size();
    Target target = targets.get(which);
    JsonObject call =
        new JsonObject()
            .put("jsonrpc", "2.0")
            .put("id", k)
            .put("method", "tools/call")
            .put(
                "params",
                new JsonObject()
                    .put("name", target.tool())
                    .put("arguments", new JsonObject().put("warmup", k).put("note", NOTE)));
    post(target.upstream(), sessions.get(which).result(), call.toBuffer())
        .onComplete(
            ar -> {
              if (ar.succeeded() && ar.result().containsKey("result")) {
                answered++;
              }
              next(calls, stopped, sessions, finished);
            });
  }

  private Future<String> initialize(String upstream) {
    JsonObject init =
        new JsonObject()
            .put("jsonrpc", "2.0")
            .put("id", "init")
            .put("method", "initialize")
            .put(
                "params",
                new JsonObject()
                    .put("protocolVersion", PROTOCOL_VERSION)
                    .put("capabilities", new JsonObject())
                    .put(
                        "clientInfo",
                        new JsonObject().put("name", "toolgate-warmup").put("version", "1")));
    return http.request(request(upstream, null))
        .compose(req -> req.send(init.toBuffer()))
        .compose(res -> res.body().map(b -> res.getHeader(McpHeaders.SESSION_ID)));
  }

  private Future<JsonObject> post(String upstream, String session, Buffer body) {
    return http.request(request(upstream, session))
        .compose(req -> req.send(body))
        .compose(res -> res.body())
        .map(Buffer::toJsonObject);
  }

  private RequestOptions request(String upstream, String session) {
    RequestOptions options =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setHost("127.0.0.1")
            .setPort(port)
            .setURI("/mcp/" + upstream)
            .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
            .putHeader(HttpHeaders.ACCEPT, "application/json, text/event-stream")
            .putHeader(McpHeaders.PROTOCOL_VERSION, PROTOCOL_VERSION);
    return session == null ? options : options.putHeader(McpHeaders.SESSION_ID, session);
  }

  Future<Void> close() {
    return http.close();
  }
}
