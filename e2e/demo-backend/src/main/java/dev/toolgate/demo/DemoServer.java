package dev.toolgate.demo;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/** The demo backend's HTTP side: MCP over Streamable HTTP plus the fault-control API. */
final class DemoServer implements DemoBackend {

  static final String SESSIONLESS_VERSION = "2026-07-28";
  static final List<String> VERSIONS =
      List.of("2025-03-26", "2025-06-18", "2025-11-25", SESSIONLESS_VERSION);
  static final String LATEST_SESSION_VERSION = "2025-11-25";
  static final String IDEMPOTENCY_META = "dev.toolgate/idempotency-key";
  private static final int SSE_RETRY_MS = 500;

  /** A tools/call in flight, cancellable by {@code notifications/cancelled}. */
  private static final class Call {
    final Set<Long> timers = ConcurrentHashMap.newKeySet();
    boolean cancelled;
  }

  private final Vertx vertx;
  private final DemoBackendOptions options;
  private final Faults faults = new Faults(System::currentTimeMillis);
  private final Ledger ledger = new Ledger();
  private final DemoTools tools = new DemoTools(ledger, System::currentTimeMillis);
  private final Map<String, String> sessions = new ConcurrentHashMap<>();
  private final Map<String, Call> inflight = new ConcurrentHashMap<>();

  /**
   * Streams kept for resumption with {@code Last-Event-ID}: the newest, since a load run opens
   * thousands a second.
   */
  static final int RESUMABLE_STREAMS = 1024;

  private final Map<String, EventStream> streams =
      Collections.synchronizedMap(
          new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, EventStream> eldest) {
              return size() > RESUMABLE_STREAMS;
            }
          });
  private final AtomicLong streamSeq = new AtomicLong();
  private HttpServer server;

  private DemoServer(Vertx vertx, DemoBackendOptions options) {
    this.vertx = vertx;
    this.options = options;
  }

  static Future<DemoBackend> start(Vertx vertx, DemoBackendOptions options) {
    DemoServer demo = new DemoServer(vertx, options);
    return vertx
        .createHttpServer(
            new HttpServerOptions()
                .setHost(options.host())
                .setPort(options.port())
                .setHttp2ClearTextEnabled(false))
        .requestHandler(demo::handle)
        .listen()
        .map(
            s -> {
              demo.server = s;
              return demo;
            });
  }

  @Override
  public int port() {
    return server.actualPort();
  }

  @Override
  public String mcpUrl() {
    return "http://" + options.host() + ":" + port() + "/mcp";
  }

  @Override
  public Faults faults() {
    return faults;
  }

  @Override
  public Ledger ledger() {
    return ledger;
  }

  @Override
  public Future<Void> close() {
    return server == null ? Future.succeededFuture() : server.close();
  }

  private void handle(HttpServerRequest req) {
    String path = req.path();
    if (path.equals("/mcp")) {
      if (options.requiredBearerToken() != null
          && !("Bearer " + options.requiredBearerToken())
              .equals(req.getHeader(io.vertx.core.http.HttpHeaders.AUTHORIZATION))) {
        req.response()
            .setStatusCode(401)
            .putHeader("WWW-Authenticate", "Bearer realm=\"demo-backend\"")
            .end();
        return;
      }
      switch (req.method().name()) {
        case "POST" -> onPost(req);
        case "GET" -> onGet(req);
        case "DELETE" -> onDelete(req);
        default -> req.response().setStatusCode(405).putHeader("Allow", "GET, POST, DELETE").end();
      }
    } else if (path.startsWith("/faults/") && req.method() == HttpMethod.POST) {
      String tool = path.substring("/faults/".length());
      setting(req, json -> faults.inject(tool, Fault.fromJson(json)));
    } else if (path.startsWith("/latency/") && req.method() == HttpMethod.POST) {
      String tool = path.substring("/latency/".length());
      setting(
          req,
          json -> {
            Object ms = json.getValue("ms", 0L);
            if (!(ms instanceof Number n)
                || n.longValue() < 0
                || n.doubleValue() != n.longValue()) {
              throw new IllegalArgumentException(
                  "ms must be a whole number of milliseconds, at least 0, was " + ms);
            }
            faults.latency(tool, n.longValue());
          });
    } else if (path.startsWith("/answers/") && req.method() == HttpMethod.POST) {
      String tool = path.substring("/answers/".length());
      setting(req, json -> faults.answerFormat(tool, AnswerFormat.of(json.getString("format"))));
    } else if (path.equals("/faults") && req.method() == HttpMethod.DELETE) {
      faults.clear();
      req.response().setStatusCode(204).end();
    } else if (path.equals("/ledger") && req.method() == HttpMethod.GET) {
      req.response().putHeader("Content-Type", "application/json").end(ledger.toJson().encode());
    } else {
      req.response().setStatusCode(404).end();
    }
  }

  /**
   * A setting posted as JSON: 204 once applied, 400 with the reason when it cannot be, nothing
   * changed.
   */
  private static void setting(HttpServerRequest req, Consumer<JsonObject> apply) {
    req.body()
        .onSuccess(
            body -> {
              try {
                apply.accept(body.toJsonObject());
                req.response().setStatusCode(204).end();
              } catch (RuntimeException e) {
                req.response().setStatusCode(400).end(String.valueOf(e.getMessage()));
              }
            });
  }

  private void onPost(HttpServerRequest req) {
    req.body()
        .onSuccess(
            body -> {
              if (body.length() > DemoBackendOptions.MAX_BODY_BYTES) {
                req.response().setStatusCode(413).end();
                return;
              }
              JsonObject msg;
              try {
                Object parsed = io.vertx.core.json.Json.decodeValue(body);
                if (!(parsed instanceof JsonObject o)) {
                  jsonError(
                      req.response(),
                      400,
                      null,
                      -32600,
                      "the demo backend takes one message per request");
                  return;
                }
                msg = o;
              } catch (DecodeException e) {
                jsonError(req.response(), 400, null, -32700, "parse error");
                return;
              }
              try {
                onMessage(req, msg);
              } catch (RuntimeException e) {
                if (!req.response().ended()) {
                  jsonError(
                      req.response(), 500, msg.getValue("id"), -32603, "internal error: " + e);
                }
              }
            });
  }

  private void onMessage(HttpServerRequest req, JsonObject msg) {
    String version = req.getHeader("MCP-Protocol-Version");
    boolean sessionless = SESSIONLESS_VERSION.equals(version);
    String method = msg.getString("method");
    Object id = msg.getValue("id");
    HttpServerResponse res = req.response();

    if (sessionless && method != null && !headersMatchBody(req, msg, res)) {
      return;
    }
    String sessionId = req.getHeader("Mcp-Session-Id");
    if ("initialize".equals(method)) {
      String requested = msg.getJsonObject("params", new JsonObject()).getString("protocolVersion");
      String agreed =
          requested != null && VERSIONS.contains(requested) ? requested : LATEST_SESSION_VERSION;
      String newSession = UUID.randomUUID().toString();
      sessions.put(newSession, agreed);
      res.putHeader("Mcp-Session-Id", newSession);
      jsonResult(
          res,
          id,
          new JsonObject()
              .put("protocolVersion", agreed)
              .put("capabilities", new JsonObject().put("tools", new JsonObject()))
              .put(
                  "serverInfo",
                  new JsonObject().put("name", "toolgate-demo-backend").put("version", "1")));
      return;
    }
    if (!sessionless) {
      if (sessionId == null) {
        jsonError(res, 400, id, -32600, "Mcp-Session-Id header is required");
        return;
      }
      if (!sessions.containsKey(sessionId)) {
        jsonError(res, 404, id, -32001, "session not found");
        return;
      }
    }
    String scope = sessionless ? "" : sessionId;
    if (method == null || id == null) {
      if ("notifications/cancelled".equals(method)) {
        Object requestId = msg.getJsonObject("params", new JsonObject()).getValue("requestId");
        cancel(scope + "/" + requestId);
      }
      res.setStatusCode(202).end();
      return;
    }
    switch (method) {
      case "ping" -> jsonResult(res, id, new JsonObject());
      case "tools/list" -> jsonResult(res, id, new JsonObject().put("tools", tools.list()));
      case "tools/call" -> callTool(req, msg, scope, sessionless);
      default -> jsonError(res, 200, id, -32601, "method not found: " + method);
    }
  }

  private boolean headersMatchBody(HttpServerRequest req, JsonObject msg, HttpServerResponse res) {
    String method = msg.getString("method");
    String headerMethod = req.getHeader("Mcp-Method");
    if (!method.equals(headerMethod)) {
      jsonError(
          res,
          400,
          msg.getValue("id"),
          -32600,
          "Mcp-Method header '"
              + headerMethod
              + "' does not match the body's method '"
              + method
              + "'");
      return false;
    }
    if ("tools/call".equals(method)) {
      String name = msg.getJsonObject("params", new JsonObject()).getString("name");
      String headerName = req.getHeader("Mcp-Name");
      if (name == null || !name.equals(headerName)) {
        jsonError(
            res,
            400,
            msg.getValue("id"),
            -32600,
            "Mcp-Name header '" + headerName + "' does not match the body's tool '" + name + "'");
        return false;
      }
    }
    return true;
  }

  private void callTool(HttpServerRequest req, JsonObject msg, String scope, boolean sessionless) {
    HttpServerResponse res = req.response();
    Object id = msg.getValue("id");
    JsonObject params = msg.getJsonObject("params", new JsonObject());
    String tool = params.getString("name", "");
    JsonObject args = params.getJsonObject("arguments", new JsonObject());
    JsonObject meta = params.getJsonObject("_meta");
    Map<String, String> headers = new HashMap<>();
    req.headers().forEach(h -> headers.put(h.getKey().toLowerCase(Locale.ROOT), h.getValue()));
    ledger.callReceived(tool, meta, headers);
    try {
      tools.validate(tool, args);
    } catch (DemoTools.InvalidArgumentsException e) {
      jsonError(res, 200, id, -32602, e.getMessage());
      return;
    }
    Optional<Fault> fault = faults.take(tool);
    if (fault.isPresent() && fault.get().kind() == Fault.Kind.STATUS) {
      Fault f = fault.get();
      if (f.retryAfterSeconds() > 0) {
        res.putHeader("Retry-After", Integer.toString(f.retryAfterSeconds()));
      }
      res.setStatusCode(f.status())
          .putHeader("Content-Type", "text/plain")
          .end("injected " + f.status());
      return;
    }
    Fault.Kind kind = fault.map(Fault::kind).orElse(null);
    String callKey = scope + "/" + id;
    Call call = new Call();
    inflight.put(callKey, call);
    if (kind == Fault.Kind.HANG) {
      return;
    }
    if (kind == Fault.Kind.HUGE_ANSWER) {
      tools.perform(tool, args, idempotencyKey(meta, req));
      inflight.remove(callKey);
      HugeAnswer.send(
          res, id, faults.answerFormatOf(tool) == AnswerFormat.SSE, fault.get().bytes());
      return;
    }
    Object progressToken = meta == null ? null : meta.getValue("progressToken");
    boolean sse =
        progressToken != null
            || kind == Fault.Kind.CLOSE_MID_STREAM
            || faults.answerFormatOf(tool) == AnswerFormat.SSE;
    EventStream stream = null;
    if (sse) {
      res.setChunked(true)
          .putHeader("Content-Type", "text/event-stream")
          .putHeader("Cache-Control", "no-cache");
      stream = new EventStream("s" + streamSeq.incrementAndGet(), res);
      streams.put(stream.id(), stream);
      stream.prime(SSE_RETRY_MS);
      stream.comment("working on " + tool);
    }
    if (sessionless) {
      // 2026-07-28: closing the stream is cancellation.
      res.closeHandler(v -> cancel(callKey));
    }
    if (kind == Fault.Kind.CLOSE_MID_STREAM) {
      stream.message(progress(progressToken == null ? "close" : progressToken, 1, 3).encode());
      EventStream s = stream;
      vertx.setTimer(
          20,
          t -> {
            inflight.remove(callKey);
            s.abort();
          });
      return;
    }
    if (kind == Fault.Kind.LATE_ANSWER) {
      // Ignores cancellation: the answer comes anyway, late.
      vertx.setTimer(
          Math.max(1, fault.get().delayMs()),
          t -> {
            JsonObject result = tools.perform(tool, args, idempotencyKey(meta, req));
            inflight.remove(callKey);
            if (!res.ended() && !res.closed()) {
              res.putHeader("Content-Type", "application/json")
                  .end(
                      new JsonObject()
                          .put("jsonrpc", "2.0")
                          .put("id", id)
                          .put("result", result)
                          .encode());
            }
          });
      return;
    }
    long latency = faults.latencyOf(tool);
    if (progressToken != null) {
      EventStream s = stream;
      for (int step = 1; step <= 3; step++) {
        int n = step;
        long at = Math.max(1, latency * step / 4);
        call.timers.add(
            vertx.setTimer(
                at,
                t -> {
                  if (!call.cancelled) {
                    s.message(progress(progressToken, n, 3).encode());
                  }
                }));
      }
    }
    EventStream s = stream;
    boolean lose = kind == Fault.Kind.LOSE_RESPONSE;
    call.timers.add(
        vertx.setTimer(
            Math.max(1, latency),
            t -> {
              if (call.cancelled) {
                return;
              }
              JsonObject result = tools.perform(tool, args, idempotencyKey(meta, req));
              if (lose) {
                return;
              }
              inflight.remove(callKey);
              JsonObject response =
                  new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
              if (s != null) {
                s.complete(response.encode());
              } else if (!res.ended() && !res.closed()) {
                res.putHeader("Content-Type", "application/json").end(response.encode());
              }
            }));
  }

  private void onGet(HttpServerRequest req) {
    String accept = req.getHeader("Accept");
    if (accept == null || !accept.contains("text/event-stream")) {
      req.response().setStatusCode(405).putHeader("Allow", "POST, DELETE").end();
      return;
    }
    String sessionId = req.getHeader("Mcp-Session-Id");
    if (sessionId != null && !sessions.containsKey(sessionId)) {
      req.response().setStatusCode(404).end();
      return;
    }
    HttpServerResponse res =
        req.response()
            .setChunked(true)
            .putHeader("Content-Type", "text/event-stream")
            .putHeader("Cache-Control", "no-cache");
    String lastEventId = req.getHeader("Last-Event-ID");
    if (lastEventId != null) {
      int colon = lastEventId.lastIndexOf(':');
      EventStream stream = colon < 0 ? null : streams.get(lastEventId.substring(0, colon));
      if (stream == null) {
        res.setStatusCode(404).end();
        return;
      }
      int seq;
      try {
        seq = Integer.parseInt(lastEventId.substring(colon + 1));
      } catch (NumberFormatException e) {
        res.setStatusCode(400).end();
        return;
      }
      stream.attach(res, seq);
      return;
    }
    EventStream stream = new EventStream("g" + streamSeq.incrementAndGet(), res);
    streams.put(stream.id(), stream);
    stream.prime(SSE_RETRY_MS);
    stream.message(
        new JsonObject()
            .put("jsonrpc", "2.0")
            .put("method", "notifications/message")
            .put("params", new JsonObject().put("level", "info").put("data", "stream opened"))
            .encode());
  }

  private void onDelete(HttpServerRequest req) {
    String sessionId = req.getHeader("Mcp-Session-Id");
    if (sessionId == null || sessions.remove(sessionId) == null) {
      req.response().setStatusCode(404).end();
      return;
    }
    req.response().setStatusCode(200).end();
  }

  private void cancel(String callKey) {
    Call call = inflight.remove(callKey);
    if (call != null) {
      call.cancelled = true;
      call.timers.forEach(vertx::cancelTimer);
      ledger.cancellationReceived();
    }
  }

  private static String idempotencyKey(JsonObject meta, HttpServerRequest req) {
    String fromMeta = meta == null ? null : meta.getString(IDEMPOTENCY_META);
    return fromMeta != null ? fromMeta : req.getHeader("Idempotency-Key");
  }

  private static JsonObject progress(Object token, int progress, int total) {
    return new JsonObject()
        .put("jsonrpc", "2.0")
        .put("method", "notifications/progress")
        .put(
            "params",
            new JsonObject()
                .put("progressToken", token)
                .put("progress", progress)
                .put("total", total));
  }

  private static void jsonResult(HttpServerResponse res, Object id, JsonObject result) {
    res.putHeader("Content-Type", "application/json")
        .end(new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result).encode());
  }

  private static void jsonError(
      HttpServerResponse res, int status, Object id, int code, String message) {
    res.setStatusCode(status)
        .putHeader("Content-Type", "application/json")
        .end(
            Buffer.buffer(
                new JsonObject()
                    .put("jsonrpc", "2.0")
                    .put("id", id)
                    .put("error", new JsonObject().put("code", code).put("message", message))
                    .encode()));
  }
}
