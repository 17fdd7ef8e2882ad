package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A tool's real effect on the backend (seed 000: classify by effect, not by protocol). The class
 * decides what may be retried and what needs an idempotency key.
 */
public enum Effect {
  @JsonProperty("read_only")
  READ_ONLY,
  @JsonProperty("expensive_read")
  EXPENSIVE_READ,
  @JsonProperty("idempotent_write")
  IDEMPOTENT_WRITE,
  @JsonProperty("non_idempotent_write")
  NON_IDEMPOTENT_WRITE;

  public boolean isWrite() {
    return this == IDEMPOTENT_WRITE || this == NON_IDEMPOTENT_WRITE;
  }

  private final String wireName = name().toLowerCase(java.util.Locale.ROOT);

  public String wireName() {
    return wireName;
  }
}
