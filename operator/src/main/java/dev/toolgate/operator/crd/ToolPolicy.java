package dev.toolgate.operator.crd;

import dev.toolgate.policy.model.Policy;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The resilience policy of an agent's tool calls. Its spec is the {@code policy} model itself (one
 * source of truth for the sidecar, the operator and the CRD schema).
 */
@Group(ToolPolicy.GROUP)
@Version(ToolPolicy.VERSION)
@Kind("ToolPolicy")
@Plural("toolpolicies")
@ShortNames("tp")
@AdditionalPrinterColumn(
    name = "Mode",
    jsonPath = ".spec.mode",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Revision",
    jsonPath = ".status.activeRevision",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Ready",
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@ValidationRule(
    value = ToolPolicyRules.BACKEND_BEFORE_TRANSPORT,
    message = ToolPolicyRules.BACKEND_BEFORE_TRANSPORT_MESSAGE)
@ValidationRule(
    value = ToolPolicyRules.TRANSPORT_LEAVES_RESERVE,
    message = ToolPolicyRules.TRANSPORT_LEAVES_RESERVE_MESSAGE)
@ValidationRule(
    value = ToolPolicyRules.AGENT_BEFORE_JOURNEY,
    message = ToolPolicyRules.AGENT_BEFORE_JOURNEY_MESSAGE)
@ValidationRule(value = ToolPolicyRules.UPSTREAMS, message = ToolPolicyRules.UPSTREAMS_MESSAGE)
@ValidationRule(value = ToolPolicyRules.ATTEMPTS, message = ToolPolicyRules.ATTEMPTS_MESSAGE)
@ValidationRule(value = ToolPolicyRules.RATIOS, message = ToolPolicyRules.RATIOS_MESSAGE)
@ValidationRule(
    value = ToolPolicyRules.NON_IDEMPOTENT_NEVER_RETRIED,
    message = ToolPolicyRules.NON_IDEMPOTENT_NEVER_RETRIED_MESSAGE)
@ValidationRule(
    value = ToolPolicyRules.RETRIED_WRITE_NEEDS_LOOKUP,
    message = ToolPolicyRules.RETRIED_WRITE_NEEDS_LOOKUP_MESSAGE)
public class ToolPolicy extends CustomResource<Policy, ToolPolicyStatus> implements Namespaced {
  private static final long serialVersionUID = 1L;

  public static final String GROUP = "toolgate.dev";
  public static final String VERSION = "v1alpha1";
}
