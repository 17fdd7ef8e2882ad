package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.toolgate.policy.model.Policy;

/**
 * The sidecar's configuration file: the policy (the {@code ToolPolicy} spec's fields, at the top
 * level of the file) plus where to listen. One file, one revision.
 */
public record SidecarConfig(
    @JsonPropertyDescription("The policy revision the operator rendered; 0 when written by hand.")
        long revision,
    @JsonPropertyDescription("Where agents reach upstreams, at `/mcp/<upstream>`.")
        ListenAddress listen,
    @JsonPropertyDescription("Health, readiness, metrics and the active config.")
        AdminOptions admin,
    @JsonPropertyDescription("Body limit, config polling, connect timeout, warm-up.")
        RuntimeOptions runtime,
    @JsonPropertyDescription("The key that verifies approval tokens.") ApprovalOptions approvals,
    @JsonPropertyDescription("The workload this sidecar serves.") AgentIdentity agent,
    @JsonPropertyDescription("Where quota counters and idempotency records live.")
        SharedStateOptions sharedState,
    @JsonPropertyDescription(
            "The policy enforced on tool calls; its fields are at the top level of the " + "file.")
        @JsonUnwrapped
        Policy policy) {

  public SidecarConfig {
    listen =
        (listen == null ? new ListenAddress(null, null) : listen)
            .withDefaultPort(ListenAddress.DEFAULT_PROXY_PORT);
    admin = admin == null ? new AdminOptions(null, null, null) : admin;
    runtime = runtime == null ? RuntimeOptions.DEFAULT : runtime;
    approvals = approvals == null ? ApprovalOptions.NONE : approvals;
    agent = agent == null ? AgentIdentity.DEFAULT : agent;
    sharedState = sharedState == null ? SharedStateOptions.DEFAULT : sharedState;
  }
}
