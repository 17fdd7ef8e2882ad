package dev.toolgate.operator.crd;

import dev.toolgate.policy.model.Policy;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The resilience policy of an agent's tool calls. Its spec is the {@code policy} model itself (one
 * source of truth for the sidecar, the operator and the CRD schema); {@link ToolPolicyCrd} adds its
 * rules.
 */
@Group(ToolPolicy.GROUP)
@Version(ToolPolicy.VERSION)
@Kind("ToolPolicy")
@Plural("toolpolicies")
@ShortNames("tp")
@Categories("toolgate")
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
public class ToolPolicy extends CustomResource<Policy, ToolPolicyStatus> implements Namespaced {
  private static final long serialVersionUID = 1L;

  public static final String GROUP = "toolgate.dev";
  public static final String VERSION = "v1alpha1";
}
