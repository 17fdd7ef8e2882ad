package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Whether a call needs a human's signed approval before it reaches the backend. */
public enum Approval {
  @JsonProperty("none")
  NONE,
  @JsonProperty("human_required")
  HUMAN_REQUIRED
}
