package dev.toolgate.sidecar.mcp;

/** HTTP header names of the MCP Streamable HTTP transport and of Toolgate's agent contract. */
public final class McpHeaders {
  public static final String SESSION_ID = "Mcp-Session-Id";
  public static final String PROTOCOL_VERSION = "MCP-Protocol-Version";

  /** 2026-07-28: the request's method; must match the body. */
  public static final String METHOD = "Mcp-Method";

  /** 2026-07-28: the tool, resource or prompt named by the request; must match the body. */
  public static final String NAME = "Mcp-Name";

  public static final String LAST_EVENT_ID = "Last-Event-ID";
  public static final String RETRY_AFTER = "Retry-After";
  public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

  /** What remains of the call's budget when an attempt is sent, in milliseconds. */
  public static final String TOOLGATE_DEADLINE_MS = "Toolgate-Deadline-Ms";

  /** The protocol version without sessions, where closing a stream cancels its request. */
  public static final String SESSIONLESS_VERSION = "2026-07-28";

  private McpHeaders() {}
}
