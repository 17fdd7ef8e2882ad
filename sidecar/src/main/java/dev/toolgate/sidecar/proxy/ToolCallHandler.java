package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.model.Budget;
import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.policy.outcome.ResultClassifier;
import dev.toolgate.sidecar.config.LoadedConfig;
import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.evidence.EventSink;
import dev.toolgate.policy.outcome.AgentCode;
import dev.toolgate.sidecar.mcp.JsonRpc;
import dev.toolgate.sidecar.mcp.McpHeaders;
import dev.toolgate.sidecar.mcp.SseEvent;
import dev.toolgate.sidecar.mcp.ToolErrorResult;
import dev.toolgate.sidecar.metrics.ToolgateMetrics;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.ConnectException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The attempt path of a {@code tools/call} (DESIGN section 3): the call gets a correlation id, each
 * attempt a fresh upstream JSON-RPC id mapped back to the agent's, progress streams through, and
 * every attempt ends in exactly one event and one set of metrics.
 *
 * <p>One attempt per call for now; the attempt is bounded by the backend budget.
 */
final class ToolCallHandler {

  private static final Logger LOG = LoggerFactory.getLogger(ToolCallHandler.class);

  /** Every upstream id the sidecar makes starts with this, so stream rewriting can skip the rest. */
  static final String ID_PREFIX = "tg-";

  static final String META_CONVERSATION_ID = "dev.toolgate/conversation-id";
  static final String META_INTENT_ID = "dev.toolgate/intent-id";
  static final String HEADER_CONVERSATION_ID = "Toolgate-Conversation-Id";
  static final String HEADER_INTENT_ID = "Toolgate-Intent-Id";
  private static final String META_PREFIX = "dev.toolgate/";

  /** How long an upstream id stays mapped after its budget, for late or resumed answers. */
  private static final long MAPPING_GRACE_MS = 60_000;

  private final Vertx vertx;
  private final UpstreamClient upstreams;
  private final IdRegistry ids;
  private final EventSink events;
  private final ToolgateMetrics metrics;
  private final Clock clock;
  private final String instance;
  private final AtomicLong sequence = new AtomicLong();

  ToolCallHandler(
      Vertx vertx,
      UpstreamClient upstreams,
      IdRegistry ids,
      EventSink events,
      ToolgateMetrics metrics,
      Clock clock) {
    this.vertx = vertx;
    this.upstreams = upstreams;
    this.ids = ids;
    this.events = events;
    this.metrics = metrics;
    this.clock = clock;
    byte[] random = new byte[3];
    new SecureRandom().nextBytes(random);
    this.instance = HexFormat.of().formatHex(random);
  }

  void handle(
      HttpServerRequest req, Routing routing, UpstreamRoute route, String sub, JsonObject msg) {
    Object params = msg.getValue("params");
    Object name = params instanceof JsonObject p ? p.getValue("name") : null;
    if (!(name instanceof String tool) || tool.isEmpty()) {
      req.response()
          .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(JsonRpc.error(msg.getValue("id"), JsonRpc.INVALID_PARAMS,
              "tools/call needs params.name, the tool's name (a string)"));
      metrics.rejected("invalid_params");
      return;
    }
    new Call(req, routing.loaded(), route, sub, msg, (JsonObject) params, tool).start();
  }

  static String describe(Throwable e) {
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    String message = e.getMessage();
    return message == null ? e.getClass().getSimpleName() : message;
  }

  /** One tools/call, from the agent's request to the agent's answer. Confined to one event loop. */
  private final class Call {
    private final HttpServerRequest req;
    private final HttpServerResponse res;
    private final LoadedConfig loaded;
    private final UpstreamRoute route;
    private final String sub;
    private final JsonObject msg;
    private final JsonObject params;
    private final String tool;
    private final String toolLabel;
    private final Object clientId;
    private final String correlationId;
    private final String upstreamId;
    private final long startNanos = System.nanoTime();
    private IdRegistry.Pending pending;
    private HttpClientRequest upstreamRequest;
    private long timer = -1;
    private boolean finished;
    private boolean answered;

    Call(
        HttpServerRequest req,
        LoadedConfig loaded,
        UpstreamRoute route,
        String sub,
        JsonObject msg,
        JsonObject params,
        String tool) {
      this.req = req;
      this.res = req.response();
      this.loaded = loaded;
      this.route = route;
      this.sub = sub;
      this.msg = msg;
      this.params = params;
      this.tool = tool;
      Policy policy = loaded.config().policy();
      this.toolLabel = policy.names(route.name(), tool) ? tool : ToolgateMetrics.UNLISTED_TOOL;
      this.clientId = msg.getValue("id");
      this.correlationId = ID_PREFIX + instance + "-" + Long.toHexString(sequence.incrementAndGet());
      this.upstreamId = correlationId + "-a1";
    }

    void start() {
      Budget budget = loaded.config().policy().budget();
      long attemptMs = Math.min(budget.backendMs(), budget.transportMs());
      String scope = IdRegistry.scope(route.name(), req.getHeader(McpHeaders.SESSION_ID));
      pending =
          ids.register(
              scope, clientId, upstreamId, clock.millis() + budget.transportMs() + MAPPING_GRACE_MS);
      timer = vertx.setTimer(attemptMs, t -> onTimeout());
      res.closeHandler(v -> onAgentGone());
      upstreams
          .open(route, HttpMethod.POST, route.upstreamUri(sub, req.query()), req.headers())
          .compose(
              upstream -> {
                upstreamRequest = upstream;
                return upstream.send(upstreamBody());
              })
          .onSuccess(this::onResponse)
          .onFailure(this::onUnreachable);
    }

    /** The agent's message with the sidecar's id and without the sidecar's own _meta keys. */
    private Buffer upstreamBody() {
      JsonObject out = msg.copy().put("id", upstreamId);
      JsonObject meta = out.getJsonObject("params").getJsonObject("_meta");
      if (meta != null) {
        meta.getMap().keySet().removeIf(k -> k.startsWith(META_PREFIX));
        if (meta.isEmpty()) {
          out.getJsonObject("params").remove("_meta");
        }
      }
      return out.toBuffer();
    }

    private void onResponse(HttpClientResponse response) {
      if (finished) {
        response.request().reset();
        return;
      }
      int status = response.statusCode();
      if (status == 202) {
        awaitOnStream(response);
      } else if (status >= 200 && status < 300 && Relay.isEventStream(response)) {
        streamAnswer(response);
      } else if (status >= 200 && status < 300) {
        jsonAnswer(response);
      } else if (status == 429 || status >= 500) {
        backendFailure(response);
      } else {
        // Protocol-level refusals (400, 401, 403, 404 session gone, ...) are the agent's to see.
        Relay.head(response, res);
        Relay.bytes(response, res);
        finish(ResultClass.BACKEND_4XX_OTHER, status, null);
      }
    }

    private void jsonAnswer(HttpClientResponse response) {
      response
          .body()
          .onSuccess(
              body -> {
                if (finished) {
                  return;
                }
                JsonObject answer = parseAnswer(body);
                Relay.head(response, res);
                res.headers().remove(HttpHeaders.CONTENT_LENGTH);
                if (answer == null && body.length() == 0) {
                  // Legacy servers may accept with an empty 200: the answer comes on the stream.
                  deferToStream(response.statusCode());
                  res.end();
                  return;
                }
                if (answer == null) {
                  res.end(body);
                  finish(ResultClass.PROTOCOL_ERROR, response.statusCode(), null);
                  return;
                }
                answer.put("id", clientId);
                answered = true;
                res.end(answer.toBuffer());
                finish(classify(answer), response.statusCode(), answer);
              })
          .onFailure(e -> closedEarly(response.statusCode()));
    }

    private void streamAnswer(HttpClientResponse response) {
      Relay.head(response, res);
      int status = response.statusCode();
      JsonObject[] answer = new JsonObject[1];
      Relay.events(
          response,
          res,
          event -> {
            JsonObject mine = ownAnswer(event);
            if (mine == null) {
              return event.raw();
            }
            mine.put("id", clientId);
            answer[0] = mine;
            answered = true;
            return SseEvent.format(event.id(), event.type(), mine.encode());
          },
          clean -> {
            if (answer[0] != null) {
              res.end();
              finish(classify(answer[0]), status, answer[0]);
            } else if (!finished) {
              closedEarly(status);
            }
          });
    }

    /** Legacy HTTP+SSE: the POST is accepted and the answer comes on the agent's GET stream. */
    private void awaitOnStream(HttpClientResponse response) {
      deferToStream(response.statusCode());
      Relay.head(response, res);
      Relay.bytes(response, res);
    }

    private void deferToStream(int status) {
      answered = true;
      pending.onStreamAnswer(answer -> finish(classify(answer), status, answer));
    }

    private void backendFailure(HttpClientResponse response) {
      int status = response.statusCode();
      String retryAfter = response.getHeader(McpHeaders.RETRY_AFTER);
      response.body();
      ResultClass result = ResultClassifier.ofHttpStatus(status);
      AgentCode code =
          status == 429
              ? AgentCode.BACKEND_429
              : status == 503 ? AgentCode.BACKEND_503 : AgentCode.BACKEND_ERROR;
      JsonObject details = new JsonObject().put("httpStatus", status);
      if (retryAfter != null) {
        details.put("retryAfter", retryAfter);
      }
      answerWithError(
          code,
          "The backend behind '" + route.name() + "' answered HTTP " + status
              + (status == 429 ? " (too many requests; retry later)" : " (unavailable)")
              + " to " + tool + ".",
          details);
      finish(result, status, null);
    }

    private void onUnreachable(Throwable e) {
      if (finished) {
        return;
      }
      answerWithError(
          AgentCode.UPSTREAM_UNAVAILABLE,
          "Toolgate could not reach upstream '" + route.name() + "' (" + describe(e)
              + "); " + tool + " was not executed.",
          null);
      finish(ResultClass.TRANSPORT_UNAVAILABLE, 0, null);
    }

    private void closedEarly(int status) {
      if (finished) {
        return;
      }
      answerWithError(
          AgentCode.UPSTREAM_CLOSED,
          "Upstream '" + route.name() + "' closed the stream before answering " + tool
              + "; whether it ran is unknown.",
          null);
      finish(ResultClass.UPSTREAM_CLOSED, status, null);
    }

    private void onTimeout() {
      timer = -1;
      if (finished) {
        return;
      }
      if (upstreamRequest != null) {
        upstreamRequest.reset();
      }
      answerWithError(
          AgentCode.TIMEOUT,
          "The attempt at " + tool + " on '" + route.name() + "' timed out; whether it ran is"
              + " unknown.",
          new JsonObject().put("timeoutLayer", "attempt"));
      finishTimedOut();
    }

    private void onAgentGone() {
      if (finished || answered) {
        return;
      }
      // Recorded first, and the id mapping kept: a 2025 agent may resume the stream with
      // Last-Event-ID, and the answer must then carry the agent's id.
      record(ResultClass.CANCELLED, 0, null, null);
      if (upstreamRequest != null) {
        upstreamRequest.reset();
      }
    }

    /** Answers the agent with a tool result the sidecar wrote, on the stream if one is open. */
    private void answerWithError(AgentCode code, String sentence, JsonObject details) {
      if (res.ended() || res.closed()) {
        return;
      }
      answered = true;
      JsonObject answer =
          JsonRpc.resultMessage(clientId, ToolErrorResult.of(code, sentence, correlationId, details));
      if (res.headWritten()) {
        res.end(SseEvent.format(null, null, answer.encode()));
      } else {
        res.setStatusCode(200)
            .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
            .end(answer.toBuffer());
      }
    }

    private JsonObject ownAnswer(SseEvent event) {
      if (!event.isMessage() || event.data().indexOf(upstreamId) < 0) {
        return null;
      }
      JsonObject message = parseAnswer(Buffer.buffer(event.data()));
      return message != null ? message : null;
    }

    /** The upstream's JSON-RPC response to this attempt, or null when the body is something else. */
    private JsonObject parseAnswer(Buffer body) {
      try {
        JsonObject message = new JsonObject(body);
        return JsonRpc.isResponse(message) && upstreamId.equals(message.getValue("id"))
            ? message
            : null;
      } catch (DecodeException | ClassCastException e) {
        return null;
      }
    }

    private ResultClass classify(JsonObject answer) {
      JsonObject error = answer.getJsonObject("error");
      if (error != null) {
        return ResultClassifier.ofJsonRpcError(error.getInteger("code", 0));
      }
      JsonObject result = answer.getJsonObject("result");
      return ResultClassifier.ofToolResult(result != null && result.getBoolean("isError", false));
    }

    private void finishTimedOut() {
      record(ResultClass.TIMEOUT, 0, null, "attempt");
      ids.remove(pending);
    }

    private void finish(ResultClass result, int httpStatus, JsonObject answer) {
      if (record(result, httpStatus, answer, null)) {
        ids.remove(pending);
      }
    }

    /** Records the attempt's outcome once; returns false when it was already recorded. */
    private boolean record(ResultClass result, int httpStatus, JsonObject answer, String layer) {
      if (finished) {
        return false;
      }
      finished = true;
      if (timer >= 0) {
        vertx.cancelTimer(timer);
        timer = -1;
      }
      if (pending.cancelledByAgent && result != ResultClass.SUCCESS) {
        result = ResultClass.CANCELLED;
      }
      long nanos = System.nanoTime() - startNanos;
      metrics.attempt(route.name(), toolLabel, result.wireName(), nanos);
      metrics.call(route.name(), toolLabel, result.wireName());
      LoadedConfig cfg = loaded;
      events.accept(
          new AttemptEvent(
              clock.instant(),
              correlationId,
              identity(META_CONVERSATION_ID, HEADER_CONVERSATION_ID),
              identity(META_INTENT_ID, HEADER_INTENT_ID),
              req.getHeader(McpHeaders.SESSION_ID),
              tool,
              route.name(),
              1,
              upstreamId,
              result.wireName(),
              httpStatus,
              nanos / 1_000_000.0,
              layer,
              operationId(answer),
              cfg.config().revision(),
              cfg.shortHash(),
              cfg.config().policy().mode().wireName(),
              "forwarded"));
      if (LOG.isDebugEnabled()) {
        LOG.debug("{} {} on {} -> {}", correlationId, tool, route.name(), result.wireName());
      }
      return true;
    }

    private String identity(String metaKey, String header) {
      JsonObject meta = params.getJsonObject("_meta");
      Object fromMeta = meta == null ? null : meta.getValue(metaKey);
      return fromMeta instanceof String s ? s : req.getHeader(header);
    }
  }

  /** The backend's operation id: a task id (2025-11-25 tasks) or an operation id in the result. */
  static String operationId(JsonObject answer) {
    JsonObject result = answer == null ? null : answer.getJsonObject("result");
    if (result == null) {
      return null;
    }
    JsonObject task = result.getValue("task") instanceof JsonObject t ? t : null;
    if (task != null && task.getValue("taskId") instanceof String id) {
      return id;
    }
    JsonObject structured =
        result.getValue("structuredContent") instanceof JsonObject s ? s : null;
    if (structured == null) {
      return null;
    }
    Object id = structured.getValue("operation_id");
    if (id == null) {
      id = structured.getValue("operationId");
    }
    return id instanceof String s ? s : null;
  }
}
