package dev.toolgate.sidecar.proxy;

import dev.toolgate.sidecar.mcp.ParsedMessage;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;

/**
 * What every attempt of one tool call shares.
 *
 * @param correlationId the call's id, given to the agent; attempt ids derive from it
 * @param clientId the agent's JSON-RPC id
 * @param scope the upstream and session the ids are mapped in
 * @param route the upstream
 * @param upstreamUri the upstream path and query
 * @param agentHeaders the agent's request headers
 * @param protocolVersion the agent's {@code MCP-Protocol-Version}, or null
 * @param request the JSON-RPC request, parsed: the agent's, with its bytes as they came and where a
 *     copy's edits go, what its copies upstream are spliced from (or, re-encoded, start as large
 *     as); or one the sidecar wrote itself, without bytes
 * @param idempotencyKey the write's key, or null
 * @param reply the agent's side
 */
record ToolCallContext(
    String correlationId,
    Object clientId,
    String scope,
    UpstreamRoute route,
    String upstreamUri,
    MultiMap agentHeaders,
    String protocolVersion,
    ParsedMessage request,
    String idempotencyKey,
    AgentReply reply) {

  static final String META_PREFIX = "dev.toolgate/";
  static final String META_CONVERSATION_ID = "dev.toolgate/conversation-id";
  static final String META_INTENT_ID = "dev.toolgate/intent-id";
  static final String META_SESSION_ID = "dev.toolgate/session-id";
  static final String META_DEADLINE_MS = "dev.toolgate/deadline-ms";
  static final String META_APPROVAL = "dev.toolgate/approval";
  static final String META_IDEMPOTENCY_KEY = "dev.toolgate/idempotency-key";
  static final String META_REPLAY = "dev.toolgate/replay";
  static final String HEADER_CONVERSATION_ID = "Toolgate-Conversation-Id";
  static final String HEADER_INTENT_ID = "Toolgate-Intent-Id";
  static final String HEADER_SESSION_ID = "Toolgate-Session-Id";
  static final String HEADER_DEADLINE_MS = "Toolgate-Deadline-Ms";
  static final String HEADER_APPROVAL = "Toolgate-Approval";

  /** The request's message. */
  JsonObject message() {
    return (JsonObject) request.value();
  }

  ToolCallContext withIdempotencyKey(String key) {
    return new ToolCallContext(
        correlationId,
        clientId,
        scope,
        route,
        upstreamUri,
        agentHeaders,
        protocolVersion,
        request,
        key,
        reply);
  }
}
