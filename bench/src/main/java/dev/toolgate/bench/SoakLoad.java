package dev.toolgate.bench;

import dev.toolgate.policy.approval.ApprovalClaims;
import dev.toolgate.policy.idempotency.IdempotencyKeys;
import dev.toolgate.sidecar.approval.ApprovalTokens;
import dev.toolgate.trust.SigningKey;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * An agent at a fixed rate for the soak: reads of a job, log searches and, one call in ten, a write
 * with an intent of its own and a human's approval, sent again once (same intent, same approval)
 * when it failed, as an agent would. A session its server no longer knows (404, after the backend's
 * restart) is opened again, as MCP clients do. Each answer is counted by its class: {@code ok}, the
 * Toolgate code of a tool error, {@code rpc_<code>}, {@code http_<status>} or {@code no_answer}.
 */
final class SoakLoad implements AutoCloseable {

  private static final String READ = "get_deployment_job";
  private static final String SEARCH = "search_logs";
  private static final String WRITE = "restart_deployment_job";
  private static final long RESEND_AFTER_MS = 2_000;

  private final Vertx vertx;
  private final HttpClient http;
  private final int port;
  private final String path;
  private final SigningKey approver;
  private final String[] sessions;
  private final boolean[] reopening;
  private final java.util.function.Function<Vertx, Future<String>> open;
  private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong intents = new AtomicLong();
  private final AtomicLong writeRequests = new AtomicLong();
  private long timer = -1;

  /** {@code open} opens a new MCP session and gives its id. */
  SoakLoad(
      Vertx vertx,
      int port,
      String path,
      SigningKey approver,
      String[] sessions,
      java.util.function.Function<Vertx, Future<String>> open) {
    this.vertx = vertx;
    this.reopening = new boolean[sessions.length];
    this.open = open;
    this.port = port;
    this.path = path;
    this.approver = approver;
    this.sessions = sessions;
    this.http =
        vertx
            .httpClientBuilder()
            .with(new HttpClientOptions().setKeepAlive(true).setConnectTimeout(2_000))
            .with(new PoolOptions().setHttp1MaxSize(64))
            .build();
  }

  /** Sends {@code rate} calls a second, each due on its own schedule, until closed. */
  void start(int rate) {
    long startNanos = System.nanoTime();
    long[] issued = {0};
    timer =
        vertx.setPeriodic(
            5,
            t -> {
              long due = (System.nanoTime() - startNanos) * rate / 1_000_000_000L;
              for (; issued[0] < due; issued[0]++) {
                call(issued[0]);
              }
            });
  }

  private void call(long n) {
    int slot = (int) (n % sessions.length);
    String session = sessions[slot];
    if (n % 10 == 9) {
      long intent = intents.incrementAndGet();
      JsonObject args =
          new JsonObject().put("job_id", "soak-" + intent).put("environment", "staging");
      write(session, intent, args, approval(args), true);
    } else if (n % 10 == 8) {
      send(session, SEARCH, new JsonObject().put("query", "q" + (n % 7)), null)
          .onSuccess(o -> reopenIfGone(slot, o));
    } else {
      send(session, READ, new JsonObject().put("job_id", "j" + (n % 50)), null)
          .onSuccess(o -> reopenIfGone(slot, o));
    }
  }

  /** A session the server answers 404 for is opened again, once at a time per slot. */
  private void reopenIfGone(int slot, String outcome) {
    if (!"http_404".equals(outcome) || reopening[slot]) {
      return;
    }
    reopening[slot] = true;
    open.apply(vertx)
        .onComplete(
            id -> {
              if (id.succeeded()) {
                sessions[slot] = id.result();
              }
              reopening[slot] = false;
            });
  }

  private void write(String session, long intent, JsonObject args, String approval, boolean first) {
    writeRequests.incrementAndGet();
    JsonObject meta =
        new JsonObject()
            .put("dev.toolgate/intent-id", "soak-intent-" + intent)
            .put("dev.toolgate/approval", approval);
    send(session, WRITE, args, meta)
        .onSuccess(
            outcome -> {
              if (first && !"ok".equals(outcome) && !"ambiguous_write".equals(outcome)) {
                vertx.setTimer(RESEND_AFTER_MS, t -> write(session, intent, args, approval, false));
              }
            });
  }

  private String approval(JsonObject args) {
    long now = System.currentTimeMillis() / 1000;
    return ApprovalTokens.mint(
        new ApprovalClaims(
            "ap-soak-" + args.getString("job_id"),
            WRITE,
            IdempotencyKeys.argumentsHash(args.getMap()),
            "soak",
            now - 60,
            now + 3_000),
        approver);
  }

  /** Sends one call; completes with its outcome class, once counted. */
  private Future<String> send(String session, String tool, JsonObject args, JsonObject meta) {
    sent.incrementAndGet();
    JsonObject params = new JsonObject().put("name", tool).put("arguments", args);
    if (meta != null) {
      params.put("_meta", meta);
    }
    Buffer body =
        new JsonObject()
            .put("jsonrpc", "2.0")
            .put("id", sent.get())
            .put("method", "tools/call")
            .put("params", params)
            .toBuffer();
    return http.request(
            new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setHost("127.0.0.1")
                .setPort(port)
                .setURI(path)
                .setTimeout(30_000)
                .putHeader("Content-Type", "application/json")
                .putHeader("Accept", "application/json, text/event-stream")
                .putHeader("Mcp-Session-Id", session))
        .compose(r -> r.send(body))
        .compose(r -> r.body().map(b -> outcome(r.statusCode(), b)))
        .recover(e -> Future.succeededFuture("no_answer"))
        .onSuccess(o -> outcomes.computeIfAbsent(o, k -> new LongAdder()).increment());
  }

  static String outcome(int status, Buffer body) {
    if (status != 200) {
      return "http_" + status;
    }
    String text = body.toString();
    int data = text.indexOf("data: {\"jsonrpc\"");
    JsonObject message;
    try {
      message = new JsonObject(data < 0 ? text : text.substring(data + 6).split("\n", 2)[0]);
    } catch (RuntimeException e) {
      return "unreadable";
    }
    if (message.getValue("error") instanceof JsonObject error) {
      return "rpc_" + error.getValue("code");
    }
    JsonObject result = message.getJsonObject("result", new JsonObject());
    if (!result.getBoolean("isError", false)) {
      return "ok";
    }
    JsonObject toolgate =
        result.getJsonObject("structuredContent", new JsonObject()).getJsonObject("toolgate");
    return toolgate == null ? "tool_error" : toolgate.getString("code", "tool_error");
  }

  /** Counts by outcome so far. */
  Map<String, Long> outcomes() {
    Map<String, Long> copy = new TreeMap<>();
    outcomes.forEach((k, v) -> copy.put(k, v.sum()));
    return copy;
  }

  long sent() {
    return sent.get();
  }

  long intents() {
    return intents.get();
  }

  long writeRequests() {
    return writeRequests.get();
  }

  @Override
  public void close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    http.close();
  }
}
