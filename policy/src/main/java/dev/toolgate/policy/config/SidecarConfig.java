package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.toolgate.policy.model.Policy;

/**
 * The sidecar's configuration file: the policy (the {@code ToolPolicy} spec's fields, at the top
 * level of the file) plus where to listen. One file, one revision.
 *
 * @param revision the policy revision the operator rendered; 0 when written by hand
 * @param listen where agents reach upstreams, at {@code /mcp/<upstream>}
 * @param admin health, readiness, metrics and the active config
 * @param runtime body limit, config polling, connect timeout
 * @param approvals the key that verifies approval tokens
 * @param agent the workload this sidecar serves
 * @param sharedState where quota counters and idempotency records live
 * @param policy the policy enforced on tool calls; its fields are at the top level of the file
 */
public record SidecarConfig(
    long revision,
    ListenAddress listen,
    AdminOptions admin,
    RuntimeOptions runtime,
    ApprovalOptions approvals,
    AgentIdentity agent,
    SharedStateOptions sharedState,
    @JsonUnwrapped Policy policy) {

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
