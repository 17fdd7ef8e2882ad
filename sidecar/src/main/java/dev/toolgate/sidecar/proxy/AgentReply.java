package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.outcome.AgentCode;
import dev.toolgate.sidecar.mcp.JsonEncoding;
import dev.toolgate.sidecar.mcp.JsonRpc;
import dev.toolgate.sidecar.mcp.SseEvent;
import dev.toolgate.sidecar.mcp.ToolErrorResult;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/**
 * The agent's side of one tool call. Whatever the attempts do, the agent gets one answer under its
 * own id: as JSON when nothing was streamed yet, else as the last event of the stream already open
 * (a retry after a broken stream continues that stream).
 */
final class AgentReply {

  private String upstreamEvidence;
  private final HttpServerResponse res;
  private final Object clientId;
  private final String correlationId;
  private boolean streaming;
  private AnswerMessage last;
  private Future<Void> hold;

  /** A reply that goes nowhere: for calls the sidecar makes itself (the lookup of a write). */
  static AgentReply detached(String correlationId) {
    return new AgentReply(null, null, correlationId);
  }

  boolean detached() {
    return res == null;
  }

  AgentReply(HttpServerResponse res, Object clientId, String correlationId) {
    this.res = res;
    this.clientId = clientId;
    this.correlationId = correlationId;
  }

  boolean open() {
    return res != null && !res.ended() && !res.closed();
  }

  boolean streaming() {
    return streaming;
  }

  /**
   * The agent cancelled the request: no result is sent for it. An open stream ends without one; a
   * request still waiting for its JSON answer gets 202 and no body. Nothing after this is sent.
   */
  void withdraw() {
    if (!open()) {
      return;
    }
    if (streaming) {
      res.end();
    } else {
      res.setStatusCode(202).end();
    }
  }

  /** Opens the SSE stream to the agent, with the upstream's headers the first time. */
  void openStream(HttpClientResponse upstream) {
    if (streaming || !open() || detached()) {
      return;
    }
    streaming = true;
    Relay.head(upstream, res);
    res.setStatusCode(200);
    res.setChunked(true);
  }

  HttpServerResponse response() {
    return res;
  }

  /**
   * Sends the final JSON-RPC message (its id is set to the agent's) and ends: as JSON, or as the
   * last event of the agent's stream when one is open.
   */
  void answer(JsonObject message) {
    answer(AnswerMessage.parsed(message, null));
  }

  /**
   * From now on an upstream's answer to this call is labelled with {@code evidence} ({@code
   * fresh}): a tool whose open circuit answers {@code cached} or {@code none} says so of its
   * current answers too.
   */
  void labelUpstreamAnswers(String evidence) {
    upstreamEvidence = evidence;
  }

  /** Sends the upstream's final answer, labelled when {@link #labelUpstreamAnswers} asked. */
  void upstreamAnswer(AnswerMessage message) {
    answer(upstreamEvidence == null ? message : message.labelled(upstreamEvidence));
  }

  /**
   * Sends the final JSON-RPC message, as {@link #answer(JsonObject)} does: its bytes with the
   * agent's id spliced in, or, where that declines, re-encoded.
   */
  void answer(AnswerMessage message) {
    last = message;
    if (hold != null && !hold.isComplete()) {
      hold.onComplete(v -> answer(message));
      return;
    }
    if (!open()) {
      return;
    }
    if (streaming) {
      Buffer event = message.eventWithId(clientId);
      res.end(
          event != null
              ? event
              : SseEvent.format(
                  message.eventId(), message.eventType(), withClientId(message).encode()));
      return;
    }
    Buffer spliced = message.withId(clientId);
    Buffer bytes = message.bytes();
    res.setStatusCode(200)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .end(
            spliced != null
                ? spliced
                : JsonEncoding.buffer(
                    withClientId(message),
                    bytes == null ? JsonEncoding.DEFAULT_SIZE_HINT : bytes.length()));
  }

  private JsonObject withClientId(AnswerMessage message) {
    return message.json().put("id", clientId);
  }

  /**
   * The final answer, when it comes, waits for {@code f}: what must be done before the agent may
   * act on it.
   */
  void holdUntil(Future<Void> f) {
    hold = f;
  }

  /** The last final message given to the agent (shared with followers of a shared call). */
  JsonObject lastAnswer() {
    return last == null ? null : withClientId(last);
  }

  /** Sends a tool result the sidecar wrote: isError, a sentence, the correlation id, the code. */
  void error(AgentCode code, String sentence, JsonObject details) {
    answer(
        JsonRpc.resultMessage(
            clientId, ToolErrorResult.of(code, sentence, correlationId, details)));
  }

  /**
   * Passes an upstream response through untouched (protocol-level refusals, shadow mode); what is
   * read whole is bounded by {@code bodies}.
   */
  void passThrough(HttpClientResponse upstream, HeldBodies bodies) {
    if (detached()) {
      bodies.discard(upstream);
      return;
    }
    if (!open()) {
      upstream.request().reset();
      return;
    }
    if (streaming) {
      bodies.discard(upstream).onComplete(b -> res.end());
      return;
    }
    Relay.head(upstream, res);
    String type = upstream.getHeader(HttpHeaders.CONTENT_TYPE);
    if (type == null || !type.regionMatches(true, 0, "application/json", 0, 16)) {
      Relay.bytes(upstream, res);
      return;
    }
    // A JSON-RPC refusal (an ended session's 404, a 400) answers the id the sidecar used
    // upstream: the agent gets its own id back, never the sidecar's.
    bodies.read(upstream).onSuccess(body -> res.end(withAgentId(body))).onFailure(e -> res.reset());
  }

  private Buffer withAgentId(Buffer body) {
    try {
      JsonObject message = new JsonObject(body);
      if (message.containsKey("id") && message.getValue("id") != null) {
        return message.put("id", clientId).toBuffer();
      }
    } catch (DecodeException | ClassCastException e) {
      // Not a JSON-RPC message: nothing of the sidecar's to take out.
    }
    return body;
  }
}
