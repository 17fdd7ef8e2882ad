package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.idempotency.IdempotencyKeys;
import dev.toolgate.policy.idempotency.IntentFingerprint;
import dev.toolgate.policy.json.CanonicalJson;
import dev.toolgate.sidecar.mcp.McpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Who and what one tool call is: its arguments, the session its quotas count in, the conversation
 * and intent it serves, and the agent's remaining time. The arguments' hash and the intent derived
 * from it are worked out once, when first asked for: by a rule that needs them (an approval, an
 * idempotency key, a shared call, a cached fallback) or right after the first attempt is written
 * upstream, while the backend works.
 */
final class CallIdentity {

  /** Per event-loop thread; a buffer grown past {@link #MAX_KEPT_SCRATCH} is not kept. */
  private static final ThreadLocal<StringBuilder> CANONICAL_SCRATCH =
      ThreadLocal.withInitial(() -> new StringBuilder(4096));

  private static final int MAX_KEPT_SCRATCH = 64 * 1024;

  private final CallServices s;
  private final HttpServerRequest req;
  private final JsonObject params;
  private final String tool;
  private final long intentWindowMs;
  private final Map<String, Object> args;
  private final String conversationId;
  private final String sessionKey;
  private final long arrivedMs;

  /** SHA-256 of the arguments' canonical text, once derived. */
  private String argumentsHash;

  private String intentId;

  CallIdentity(
      CallServices s, HttpServerRequest req, JsonObject params, String tool, long intentWindowMs) {
    this.s = s;
    this.req = req;
    this.params = params;
    this.tool = tool;
    this.intentWindowMs = intentWindowMs;
    this.args =
        (params.getValue("arguments") instanceof JsonObject a ? a : new JsonObject()).getMap();
    this.conversationId =
        given(ToolCallContext.META_CONVERSATION_ID, ToolCallContext.HEADER_CONVERSATION_ID);
    String session = req.getHeader(McpHeaders.SESSION_ID);
    if (session == null) {
      session = given(ToolCallContext.META_SESSION_ID, ToolCallContext.HEADER_SESSION_ID);
    }
    this.sessionKey = session == null ? "pod" : session;
    this.arrivedMs = s.clock().millis();
  }

  String tool() {
    return tool;
  }

  Map<String, Object> arguments() {
    return args;
  }

  String conversationId() {
    return conversationId;
  }

  /** The session the call's quotas count in: the MCP session, the agent's, or the pod's. */
  String sessionKey() {
    return sessionKey;
  }

  long arrivedMs() {
    return arrivedMs;
  }

  String argumentsHash() {
    derive();
    return argumentsHash;
  }

  String intentId() {
    derive();
    return intentId;
  }

  /** Derives the arguments' hash and the intent now, if not yet done. */
  void derive() {
    if (argumentsHash != null) {
      return;
    }
    StringBuilder canonicalArguments = CANONICAL_SCRATCH.get();
    canonicalArguments.setLength(0);
    CanonicalJson.appendTo(args, canonicalArguments);
    argumentsHash = IdempotencyKeys.argumentsHashOfCanonical(canonicalArguments);
    if (canonicalArguments.capacity() > MAX_KEPT_SCRATCH) {
      CANONICAL_SCRATCH.remove();
    }
    String given = given(ToolCallContext.META_INTENT_ID, ToolCallContext.HEADER_INTENT_ID);
    intentId =
        given != null
            ? given
            : s.intents()
                .intentFor(
                    IntentFingerprint.ofArgumentsHash(sessionKey, tool, argumentsHash),
                    arrivedMs,
                    intentWindowMs);
  }

  /** The approval token the agent sent, or null. */
  String approvalToken() {
    return given(ToolCallContext.META_APPROVAL, ToolCallContext.HEADER_APPROVAL);
  }

  /** The agent's remaining time, from its {@code _meta} or header, when it sent one. */
  OptionalLong agentRemainingMs() {
    Object fromMeta = meta() == null ? null : meta().getValue(ToolCallContext.META_DEADLINE_MS);
    if (fromMeta instanceof Number n) {
      return OptionalLong.of(n.longValue());
    }
    String header = req.getHeader(ToolCallContext.HEADER_DEADLINE_MS);
    if (header != null) {
      try {
        return OptionalLong.of(Long.parseLong(header.trim()));
      } catch (NumberFormatException e) {
        return OptionalLong.empty();
      }
    }
    return OptionalLong.empty();
  }

  /** A string the agent gave in {@code _meta}, else in a header. */
  private String given(String metaKey, String header) {
    Object fromMeta = meta() == null ? null : meta().getValue(metaKey);
    return fromMeta instanceof String v ? v : req.getHeader(header);
  }

  private JsonObject meta() {
    return params.getValue("_meta") instanceof JsonObject m ? m : null;
  }
}
