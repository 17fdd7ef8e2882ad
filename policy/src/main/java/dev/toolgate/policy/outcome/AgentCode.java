package dev.toolgate.policy.outcome;

import java.util.Locale;

/**
 * The machine code of a call the sidecar answered itself (DESIGN section 5), in the result's {@code
 * structuredContent.toolgate.code} and {@code _meta["dev.toolgate/code"]}: what an agent runtime
 * branches on.
 */
public enum AgentCode {
  /** The kill switch blocks writes; reads still work. */
  WRITES_BLOCKED,
  /** The tool needs a human's approval token; none valid was given. */
  APPROVAL_REQUIRED,
  /** The policy refuses the call as made (e.g. a write whose idempotency key cannot be derived). */
  POLICY_DENIED,
  /** The session (or agent) used up its read or write quota. */
  QUOTA_EXCEEDED,
  /** The session calls faster than its rate limit allows. */
  RATE_LIMITED,
  /** The tool's circuit is open; reads may carry the last known result. */
  CIRCUIT_OPEN,
  /** The same write is already running. */
  DUPLICATE_IN_FLIGHT,
  /** A write reached the backend and its outcome is unknown; it was looked up, not retried. */
  AMBIGUOUS_WRITE,
  /** A budget layer expired before the answer. */
  TIMEOUT,
  /** No budget was left to start an attempt. */
  BUDGET_EXHAUSTED,
  /** The upstream could not be reached; nothing was executed. */
  UPSTREAM_UNAVAILABLE,
  /** The upstream closed the stream before answering; the call's outcome is unknown. */
  UPSTREAM_CLOSED,
  /** The upstream's answer was over the sidecar's limit; it was dropped, not relayed. */
  UPSTREAM_ANSWER_TOO_LARGE,
  /** The sidecar held too many bodies at once to read the answer; retry in a moment. */
  SIDECAR_BUSY,
  /** The backend answered 429. */
  BACKEND_429,
  /** The backend answered 503. */
  BACKEND_503,
  /** The backend answered another 5xx. */
  BACKEND_ERROR;

  private final String wireName = name().toLowerCase(Locale.ROOT);

  public String wireName() {
    return wireName;
  }
}
