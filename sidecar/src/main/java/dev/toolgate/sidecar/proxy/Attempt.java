package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.budget.CallBudget;
import dev.toolgate.policy.budget.TimeoutLayer;
import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.policy.outcome.ResultClassifier;
import dev.toolgate.sidecar.mcp.JsonEncoding;
import dev.toolgate.sidecar.mcp.JsonRpc;
import dev.toolgate.sidecar.mcp.McpHeaders;
import dev.toolgate.sidecar.mcp.MessageSplice;
import dev.toolgate.sidecar.mcp.SseEvent;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.ConnectException;
import java.util.LinkedHashMap;
import java.util.OptionalLong;
import java.util.function.BiConsumer;

/**
 * One attempt of a tool call against its upstream: a fresh JSON-RPC id, the deadline and
 * idempotency key propagated, the answer relayed to the agent when it is final, and a timeout that
 * abandons the attempt (cancelling it upstream) when its budget layer expires. An abandoned
 * attempt's late answer is handed to {@code onLate} as evidence and never forwarded.
 */
final class Attempt {

  /** Once abandoned, how long a late answer is still waited for, as evidence. */
  static final long LATE_RESULT_WINDOW_MS = 30_000;

  /** What the sidecar adds to a message it passes on: its id and the {@code _meta} entries. */
  private static final int META_BYTES = 160;

  /**
   * What an attempt came to.
   *
   * @param answer the upstream's answer; null when there is none
   */
  record Outcome(
      ResultClass result,
      int httpStatus,
      AnswerMessage answer,
      boolean answered,
      boolean ambiguous,
      OptionalLong retryAfterMs,
      TimeoutLayer timeoutLayer,
      long nanos) {

    /** The backend's operation id in the answer, or null. */
    String operationId() {
      return answer == null ? null : answer.operationId();
    }
  }

  private final CallServices services;
  private final ToolCallContext call;
  private final int number;
  private final String upstreamId;
  private final CallBudget.AttemptTimeout timeout;
  private final boolean transparent;
  private final BiConsumer<Attempt, JsonObject> onLate;
  private final Promise<Outcome> outcome = Promise.promise();
  private final long startNanos = System.nanoTime();
  private IdRegistry.Pending pending;
  private HttpClientRequest request;
  private long timer = -1;

  /**
   * The answer comes on an event stream, which the agent may resume and the upstream replay: an
   * answered request is then remembered ({@link IdRegistry#answered}).
   */
  private boolean onStream;

  private boolean sent;

  Attempt(
      CallServices services,
      ToolCallContext call,
      int number,
      CallBudget.AttemptTimeout timeout,
      boolean transparent,
      BiConsumer<Attempt, JsonObject> onLate) {
    this.services = services;
    this.call = call;
    this.number = number;
    this.upstreamId = call.correlationId() + "-a" + number;
    this.timeout = timeout;
    this.transparent = transparent;
    this.onLate = onLate;
  }

  int number() {
    return number;
  }

  String upstreamId() {
    return upstreamId;
  }

  Future<Outcome> start() {
    long now = services.clock().millis();
    pending =
        services
            .ids()
            .register(
                call.scope(),
                call.clientId(),
                upstreamId,
                now + timeout.timeoutMs() + LATE_RESULT_WINDOW_MS + 60_000);
    timer =
        services.vertx().setTimer(Math.max(1, timeout.timeoutMs()), t -> abandon(timeout.layer()));
    services
        .upstreams()
        .open(call.route(), HttpMethod.POST, call.upstreamUri(), call.agentHeaders())
        .compose(
            upstream -> {
              request = upstream;
              sent = true;
              if (!transparent) {
                upstream.putHeader(
                    McpHeaders.TOOLGATE_DEADLINE_MS, Long.toString(timeout.timeoutMs()));
                if (call.idempotencyKey() != null) {
                  upstream.putHeader(McpHeaders.IDEMPOTENCY_KEY, call.idempotencyKey());
                }
              }
              return upstream.send(body());
            })
        .onSuccess(this::onResponse)
        .onFailure(this::onFailure);
    return outcome.future();
  }

  private Buffer body() {
    JsonObject given = call.message().getJsonObject("params").getJsonObject("_meta");
    if (given == null) {
      Buffer spliced =
          transparent
              ? MessageSplice.withId(call.request(), upstreamId)
              : MessageSplice.withIdAndMeta(
                  call.request(), upstreamId, sidecarMeta(new JsonObject()));
      if (spliced != null) {
        return spliced;
      }
    }
    // Copies only what changes (the envelope, params, _meta); the arguments are shared, never
    // mutated.
    JsonObject out =
        new JsonObject(new LinkedHashMap<>(call.message().getMap())).put("id", upstreamId);
    JsonObject params =
        new JsonObject(new LinkedHashMap<>(call.message().getJsonObject("params").getMap()));
    out.put("params", params);
    JsonObject meta = given == null ? null : new JsonObject(new LinkedHashMap<>(given.getMap()));
    if (meta != null) {
      params.put("_meta", meta);
      meta.getMap().keySet().removeIf(k -> k.startsWith(ToolCallContext.META_PREFIX));
    }
    if (!transparent) {
      if (meta == null) {
        meta = new JsonObject();
        params.put("_meta", meta);
      }
      sidecarMeta(meta);
    }
    if (meta != null && meta.isEmpty()) {
      params.remove("_meta");
    }
    Buffer received = call.request().bytes();
    return JsonEncoding.buffer(out, (received == null ? 0 : received.length()) + META_BYTES);
  }

  /**
   * What the sidecar tells the upstream in {@code params._meta}: the attempt's deadline and the
   * write's key.
   */
  private JsonObject sidecarMeta(JsonObject meta) {
    meta.put(ToolCallContext.META_DEADLINE_MS, timeout.timeoutMs());
    if (call.idempotencyKey() != null) {
      meta.put(ToolCallContext.META_IDEMPOTENCY_KEY, call.idempotencyKey());
    }
    return meta;
  }

  boolean settled() {
    return outcome.future().isComplete();
  }

  private void settle(
      ResultClass result,
      int status,
      AnswerMessage answer,
      boolean answered,
      boolean ambiguous,
      OptionalLong retryAfter,
      TimeoutLayer layer) {
    if (settled()) {
      return;
    }
    if (timer >= 0) {
      services.vertx().cancelTimer(timer);
      timer = -1;
    }
    if (answered && onStream) {
      services.ids().answered(pending);
    } else if (answered) {
      services.ids().remove(pending);
    }
    outcome.complete(
        new Outcome(
            result,
            status,
            answer,
            answered,
            ambiguous,
            retryAfter,
            layer,
            System.nanoTime() - startNanos));
  }

  private void onResponse(HttpClientResponse response) {
    int status = response.statusCode();
    if (settled()) {
      observeLate(response);
      return;
    }
    if (status == 202) {
      deferToStream(status);
      call.reply().passThrough(response, services.bodies());
    } else if (status >= 200 && status < 300 && Relay.isEventStream(response)) {
      stream(response);
    } else if (status >= 200 && status < 300) {
      json(response);
    } else if ((status == 429 || status >= 500) && !transparent) {
      OptionalLong retryAfter = retryAfterMs(response.getHeader(McpHeaders.RETRY_AFTER));
      services.bodies().discard(response);
      settle(ResultClassifier.ofHttpStatus(status), status, null, false, false, retryAfter, null);
    } else {
      call.reply().passThrough(response, services.bodies());
      settle(
          ResultClassifier.ofHttpStatus(status),
          status,
          null,
          true,
          false,
          OptionalLong.empty(),
          null);
    }
  }

  private void json(HttpClientResponse response) {
    services
        .bodies()
        .read(response)
        .onSuccess(
            body -> {
              if (settled()) {
                AnswerMessage late = ownAnswer(body);
                if (late != null) {
                  onLate.accept(this, late.json());
                }
                return;
              }
              AnswerMessage answer = ownAnswer(body);
              if (answer == null && body.length() == 0) {
                // Legacy servers may accept with an empty 200: the answer comes on the agent's
                // stream.
                deferToStream(response.statusCode());
                if (call.reply().open()) {
                  call.reply().response().setStatusCode(response.statusCode()).end();
                }
                return;
              }
              if (answer == null) {
                if (call.reply().open() && !call.reply().streaming()) {
                  call.reply()
                      .response()
                      .setStatusCode(response.statusCode())
                      .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                      .end(body);
                }
                settle(
                    ResultClass.PROTOCOL_ERROR,
                    response.statusCode(),
                    null,
                    true,
                    false,
                    OptionalLong.empty(),
                    null);
                return;
              }
              answered(answer, response.statusCode());
              call.reply().upstreamAnswer(answer);
            })
        .onFailure(e -> unanswered(response, unreadClass(e)));
  }

  private void stream(HttpClientResponse response) {
    onStream = true;
    if (call.reply().detached()) {
      observeLate(response);
      return;
    }
    call.reply().openStream(response);
    Relay.events(
        response,
        call.reply().response(),
        services.bodies(),
        event -> {
          AnswerMessage mine = ownAnswer(event);
          if (mine == null) {
            return settled() ? null : event.raw();
          }
          if (settled()) {
            onLate.accept(this, mine.json());
            return null;
          }
          mine.cameAs(event);
          answered(mine, response.statusCode());
          call.reply().upstreamAnswer(mine);
          return null;
        },
        end -> unanswered(response, end.unanswered()));
  }

  private void deferToStream(int status) {
    onStream = true;
    pending.onStreamAnswer(
        answer ->
            settle(
                classify(answer),
                status,
                AnswerMessage.parsed(answer, null),
                true,
                false,
                OptionalLong.empty(),
                null));
  }

  private void onFailure(Throwable e) {
    if (settled()) {
      return;
    }
    boolean notSent = e instanceof ConnectException || request == null;
    settle(
        notSent ? ResultClass.TRANSPORT_UNAVAILABLE : ResultClass.UPSTREAM_CLOSED,
        0,
        null,
        false,
        !notSent,
        OptionalLong.empty(),
        null);
  }

  /** The attempt's budget layer expired: stop waiting, and tell the upstream. */
  private void abandon(TimeoutLayer layer) {
    timer = -1;
    if (settled()) {
      return;
    }
    settle(ResultClass.TIMEOUT, 0, null, false, sent, OptionalLong.empty(), layer);
    services.ids().remove(pending);
    cancelUpstream("toolgate: " + layer.wireName() + " timeout");
  }

  /** The agent cancelled the call: stop waiting, and tell the upstream. */
  void cancelByAgent() {
    if (settled()) {
      return;
    }
    settle(ResultClass.CANCELLED, 0, null, false, sent, OptionalLong.empty(), null);
    services.ids().remove(pending);
    cancelUpstream("cancelled by the agent");
  }

  /** The agent went away (or, in 2026-07-28, cancelled by closing its stream). */
  void agentGone() {
    if (settled()) {
      return;
    }
    settle(ResultClass.CANCELLED, 0, null, false, sent, OptionalLong.empty(), null);
    if (request != null) {
      request.reset();
    }
  }

  private void cancelUpstream(String reason) {
    if (request == null) {
      return;
    }
    if (McpHeaders.SESSIONLESS_VERSION.equals(call.protocolVersion())) {
      request.reset();
      return;
    }
    JsonObject cancel =
        new JsonObject()
            .put("jsonrpc", "2.0")
            .put("method", "notifications/cancelled")
            .put("params", new JsonObject().put("requestId", upstreamId).put("reason", reason));
    services
        .upstreams()
        .open(call.route(), HttpMethod.POST, call.upstreamUri(), call.agentHeaders())
        .compose(r -> r.send(cancel.toBuffer()))
        .onSuccess(services.bodies()::discard);
    HttpClientRequest abandoned = request;
    services.vertx().setTimer(LATE_RESULT_WINDOW_MS, t -> abandoned.reset());
  }

  /** Reads a stream for this attempt's answer without relaying it: late answers, lookups. */
  private void observeLate(HttpClientResponse response) {
    HeldBodies bodies = services.bodies();
    if (!Relay.isEventStream(response)) {
      bodies
          .read(response)
          .onSuccess(
              body -> {
                AnswerMessage late = ownAnswer(body);
                if (late != null) {
                  onLate.accept(this, late.json());
                }
              })
          .onFailure(e -> unanswered(response, unreadClass(e)));
      return;
    }
    Relay.read(
        response,
        bodies,
        event -> {
          AnswerMessage answer = ownAnswer(event);
          if (answer == null) {
            return;
          }
          if (settled()) {
            onLate.accept(this, answer.json());
          } else {
            answered(answer, response.statusCode());
          }
        },
        end -> unanswered(response, end.unanswered()));
  }

  /** What an answer the sidecar could not read whole came to. */
  private static ResultClass unreadClass(Throwable e) {
    if (e instanceof HeldBodies.AnswerTooLarge) {
      return ResultClass.UPSTREAM_ANSWER_TOO_LARGE;
    }
    return e instanceof HeldBodies.Overloaded
        ? ResultClass.SIDECAR_OVERLOADED
        : ResultClass.UPSTREAM_CLOSED;
  }

  /** This attempt's answer came: settled with its class. */
  private void answered(AnswerMessage answer, int status) {
    settle(answer.resultClass(), status, answer, true, false, OptionalLong.empty(), null);
  }

  /** The response ended without this attempt's answer: settled as such, if still open. */
  private void unanswered(HttpClientResponse response, ResultClass result) {
    if (!settled()) {
      settle(result, response.statusCode(), null, false, true, OptionalLong.empty(), null);
    }
  }

  private AnswerMessage ownAnswer(SseEvent event) {
    if (!event.isMessage() || !event.dataContains(upstreamId)) {
      return null;
    }
    return ownAnswer(event.data());
  }

  /** This attempt's answer in {@code body}: read by a scan where one can tell, else parsed. */
  private AnswerMessage ownAnswer(Buffer body) {
    AnswerMessage scanned = AnswerMessage.scan(body);
    if (scanned != null) {
      return scanned.idIs(upstreamId) ? scanned : null;
    }
    try {
      JsonObject message = new JsonObject(body);
      if (!JsonRpc.isResponse(message) || !upstreamId.equals(message.getValue("id"))) {
        return null;
      }
      return AnswerMessage.parsed(message, body);
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
  }

  /**
   * The class of a JSON-RPC response. Total: an error that is not an object or has no numeric code,
   * a result that is not an object, an {@code isError} that is not a boolean are a protocol error,
   * answered at once, not an exception that would leave the attempt to its timeout.
   */
  static ResultClass classify(JsonObject answer) {
    Object error = answer.getValue("error");
    if (error != null) {
      Object code = error instanceof JsonObject e ? e.getValue("code") : null;
      return ResultClassifier.ofJsonRpcError(code instanceof Number n ? n.intValue() : 0);
    }
    Object result = answer.getValue("result");
    if (result == null) {
      return ResultClassifier.ofToolResult(false);
    }
    Object isError = result instanceof JsonObject r ? r.getValue("isError") : Boolean.FALSE;
    if (!(result instanceof JsonObject) || (isError != null && !(isError instanceof Boolean))) {
      return ResultClass.PROTOCOL_ERROR;
    }
    return ResultClassifier.ofToolResult(Boolean.TRUE.equals(isError));
  }

  /** {@code Retry-After} in seconds (the HTTP-date form is not used by MCP servers). */
  static OptionalLong retryAfterMs(String header) {
    if (header == null) {
      return OptionalLong.empty();
    }
    try {
      long seconds = Long.parseLong(header.trim());
      return seconds < 0 ? OptionalLong.empty() : OptionalLong.of(seconds * 1000);
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
