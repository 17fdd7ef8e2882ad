package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.policy.outcome.ResultClassifier;
import dev.toolgate.sidecar.mcp.MessageSplice;
import dev.toolgate.sidecar.mcp.OperationId;
import dev.toolgate.sidecar.mcp.ScannedAnswer;
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

  private AnswerMessage(Buffer bytes, ScannedAnswer scanned, JsonObject json) {
    this.bytes = bytes;
    this.scanned = scanned;
    this.json = json;
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

  /** As {@link #withId}, as one server-sent event. */
  Buffer eventWithId(Object id) {
    if (scanned != null) {
      return scanned.eventWithId(id);
    }
    return bytes == null ? null : MessageSplice.eventWithId(bytes, id);
  }
}
