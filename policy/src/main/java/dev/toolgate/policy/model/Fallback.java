package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What an open breaker answers instead of calling the backend. */
public enum Fallback {
  /** Refuse with {@code circuit_open}. */
  @JsonProperty("none")
  NONE,
  /**
   * Reads only: the last known successful result, its timestamp and {@code
   * no_write_action_performed}.
   */
  @JsonProperty("read_only_degraded_response")
  READ_ONLY_DEGRADED_RESPONSE
}
