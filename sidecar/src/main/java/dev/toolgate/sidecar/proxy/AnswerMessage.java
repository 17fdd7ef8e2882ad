package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.policy.outcome.ResultClassifier;
import dev.toolgate.sidecar.mcp.MessageSplice;
import dev.toolgate.sidecar.mcp.OperationId;
import dev.toolgate.sidecar.mcp.ScannedAnswer;
import dev.toolgate.sidecar.mcp.SseEvent;
import dev.toolgate.sidecar.mcp.ToolErrorResult;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/**
 * A tool call's final JSON-RPC answer: an upstream's, as its bytes, or one the sidecar wrote,
 * parsed. Where a scan can read an upstream's answer ({@link ScannedAnswer}), it is classified and
 * passed on from its bytes, and parsed into a {@code JsonObject} only when something asks for the
 * parsed form: a write's idempotency record, a shared call's followers, an operation id the answer
 * may hold. A read's answer then reaches the agent without being parsed. Confined to the call's
 * event loop.
 */
final class AnswerMessage {

  private final Buffer bytes;
  private final ScannedAnswer scanned;
  private JsonObject json;
  private String eventId;
  private String eventType;

  private AnswerMessage(Buffer bytes, ScannedAnswer scanned, JsonObject json) {
    this.bytes = bytes;
    this.scanned = scanned;
    this.json = json;
  }

  /** This answer came as {@code event}: its id and type go with it to the agent's stream. */
  AnswerMessage cameAs(SseEvent event) {
    eventId = event.id();
    eventType = event.type();
    return this;
  }

  /**
   * This answer with {@code _meta["dev.toolgate/evidence"]} set on its result ({@code fresh}: the
   * backend's answer now, as opposed to a degraded {@code cached} or {@code none}); unchanged when
   * it has no result object. Parsed and re-encoded: only tools with a degraded fallback ask.
   */
  AnswerMessage labelled(String evidence) {
    if (!hasResult()) {
      return this;
    }
    JsonObject message = json().copy();
    JsonObject result = message.getJsonObject("result");
    Object meta = result.getValue("_meta");
    result.put(
        "_meta",
        (meta instanceof JsonObject m ? m : new JsonObject())
            .put(ToolErrorResult.META_EVIDENCE, evidence));
    AnswerMessage labelled = parsed(message, null);
    labelled.eventId = eventId;
    labelled.eventType = eventType;
    return labelled;
  }

  /** The upstream event's {@code id:}, or null. */
  String eventId() {
    return eventId;
  }

  /** The upstream event's {@code event:} type, or null. */
  String eventType() {
    return eventType;
  }

  /**
   * An upstream's answer in {@code bytes} read by a scan, or null where it must be parsed instead.
   */
  static AnswerMessage scan(Buffer bytes) {
    ScannedAnswer scanned = ScannedAnswer.of(bytes, OperationId.KEYS);
    return scanned == null ? null : new AnswerMessage(bytes, scanned, null);
  }

  /**
   * @param bytes the message as it came, unchanged since it was parsed; null for a message the
   *     sidecar wrote or changed, or one met on another stream
   */
  static AnswerMessage parsed(JsonObject json, Buffer bytes) {
    return new AnswerMessage(bytes, null, json);
  }

  /** Whether a scanned answer's id is {@code id} (plain ASCII). */
  boolean idIs(String id) {
    return scanned.idIs(id);
  }

  /** The message, parsed on the first call; the same object on every call after it. */
  JsonObject json() {
    if (json == null) {
      json = new JsonObject(bytes);
    }
    return json;
  }

  /** The message as it came; null for one the sidecar has only parsed. */
  Buffer bytes() {
    return bytes;
  }

  ResultClass resultClass() {
    if (scanned == null) {
      return Attempt.classify(json);
    }
    return switch (scanned.kind()) {
      case RESULT -> ResultClassifier.ofToolResult(false);
      case TOOL_ERROR -> ResultClassifier.ofToolResult(true);
      case RPC_ERROR -> ResultClassifier.ofJsonRpcError(scanned.errorCode());
    };
  }

  /** Whether the message has a result object. */
  boolean hasResult() {
    return scanned != null ? scanned.hasResult() : json.getValue("result") instanceof JsonObject;
  }

  /**
   * The backend's operation id ({@link OperationId}). A scanned answer is parsed for it only when
   * its scan noted one of {@link OperationId#KEYS}.
   */
  String operationId() {
    if (scanned != null && !scanned.hasNotedKey()) {
      return null;
    }
    return OperationId.of(json());
  }

  /** The message with the agent's id spliced in; null when it must be re-encoded instead. */
  Buffer withId(Object id) {
    if (scanned != null) {
      return scanned.withId(id);
    }
    return bytes == null ? null : MessageSplice.withId(bytes, id);
  }

  /**
   * As {@link #withId}, as one server-sent event, with the upstream event's id and type when it
   * came as one.
   */
  Buffer eventWithId(Object id) {
    Buffer data =
        scanned != null
            ? scanned.eventWithId(id)
            : bytes == null ? null : MessageSplice.eventWithId(bytes, id);
    if (data == null || (eventId == null && eventType == null)) {
      return data;
    }
    StringBuilder head = new StringBuilder();
    if (eventId != null) {
      head.append("id: ").append(eventId).append('\n');
    }
    if (eventType != null) {
      head.append("event: ").append(eventType).append('\n');
    }
    return Buffer.buffer(head.toString()).appendBuffer(data);
  }
}
