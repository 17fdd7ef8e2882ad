package dev.toolgate.sidecar.mcp;

import java.util.Locale;

/**
 * The machine code of a call the sidecar answered itself, in the result's {@code structuredContent}
 * and {@code _meta}: what an agent runtime branches on.
 */
public enum AgentErrorCode {
  /** The upstream could not be reached; nothing was executed. */
  UPSTREAM_UNAVAILABLE,
  /** The upstream closed the stream before answering; the call's outcome is unknown. */
  UPSTREAM_CLOSED,
  /** The backend answered 429. */
  BACKEND_429,
  /** The backend answered 503. */
  BACKEND_503,
  /** The backend answered another 5xx. */
  BACKEND_ERROR,
  /** A budget layer expired before the answer. */
  TIMEOUT;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
