package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What becomes of a tool the policy does not name. */
public enum UnlistedTools {
  /** Left out of {@code tools/list} answers and refused with {@code policy_denied}. */
  @JsonProperty("deny")
  DENY,
  /** Served under the policy's {@link UnlistedRule defaults} rule. */
  @JsonProperty("allow")
  ALLOW
}
