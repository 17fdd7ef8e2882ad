package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What one breaker covers. */
public enum BreakerScope {
  /**
   * One breaker per tool (or breaker group) and upstream: one bad operation spares healthy reads.
   */
  @JsonProperty("tool_and_backend")
  TOOL_AND_BACKEND,
  /** One breaker per upstream, shared by all its tools that declare it. */
  @JsonProperty("backend")
  BACKEND
}
