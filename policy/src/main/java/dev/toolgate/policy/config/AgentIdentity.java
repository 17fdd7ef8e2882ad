package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * The workload this sidecar serves: all its sessions share the per-agent quota. Set by whoever
 * deploys the sidecar (the operator), never by the agent.
 */
public record AgentIdentity(
    @JsonPropertyDescription("The agent's name, e.g. the Deployment's.") String id) {
  public static final String DEFAULT_ID = "local";

  public static final AgentIdentity DEFAULT = new AgentIdentity(null);

  public AgentIdentity {
    id = id == null || id.isBlank() ? DEFAULT_ID : id;
  }
}
