package dev.toolgate.operator.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRuleBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ToolPolicy CRD as the API server gets it: the schema fabric8 generates from {@link
 * ToolPolicy} and the policy model (descriptions, bounds, required fields), refined with what the
 * generator cannot say: list-map keys, and {@link ToolPolicyRules} each on its own node. A pure
 * function of the generated CRD, no I/O.
 */
public final class ToolPolicyCrd {

  /** The CRD's file in {@code crds/}, which the chart links to. */
  public static final String FILE_NAME = "toolpolicies.toolgate.dev.yaml";

  /** Lists whose items are identified by keys, so the API server refuses duplicates. */
  private static final Map<String, List<String>> LIST_MAP_KEYS =
      Map.of("spec.tools", List.of("upstream", "name"), "spec.upstreams", List.of("name"));

  private static final String HEADER =
      "# Generated from dev.toolgate.operator.crd.ToolPolicy, the policy model and ToolPolicyRules;"
          + " do not edit.\n"
          + "# Regenerate: ./mvnw -pl operator test -Dtest=CrdIsCurrentTest"
          + " -Dtoolgate.regenerate=true\n";

  private ToolPolicyCrd() {}

  /** The generated CRD with list-map keys and every rule on its node. */
  public static CustomResourceDefinition refine(CustomResourceDefinition generated) {
    CustomResourceDefinition crd = new KubernetesSerialization().clone(generated);
    JSONSchemaProps root = crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
    LIST_MAP_KEYS.forEach(
        (path, keys) -> {
          JSONSchemaProps list = node(root, path);
          list.setXKubernetesListType("map");
          list.setXKubernetesListMapKeys(keys);
        });
    for (ToolPolicyRules.Rule rule : ToolPolicyRules.ALL) {
      JSONSchemaProps node = node(root, rule.node());
      List<ValidationRule> rules =
          node.getXKubernetesValidations() == null
              ? new ArrayList<>()
              : new ArrayList<>(node.getXKubernetesValidations());
      rules.add(
          new ValidationRuleBuilder()
              .withRule(rule.rule())
              .withMessage(rule.message())
              .withFieldPath(rule.fieldPath())
              .withReason(rule.reason())
              .build());
      node.setXKubernetesValidations(rules);
    }
    return crd;
  }

  /**
   * The node of the schema at {@code path}: dotted property names from the root, {@code []} for a
   * list's items ({@code spec.tools[].retry}).
   */
  public static JSONSchemaProps node(JSONSchemaProps root, String path) {
    JSONSchemaProps node = root;
    for (String step : path.split("\\.")) {
      boolean items = step.endsWith("[]");
      String name = items ? step.substring(0, step.length() - 2) : step;
      JSONSchemaProps next = node.getProperties() == null ? null : node.getProperties().get(name);
      if (next == null) {
        throw new IllegalArgumentException("no property '" + name + "' in the schema at " + path);
      }
      node = items ? next.getItems().getSchema() : next;
    }
    return node;
  }

  /** The CRD as YAML, bounds that are whole numbers written as integers. */
  public static String yaml(CustomResourceDefinition crd) {
    KubernetesSerialization serialization = new KubernetesSerialization();
    Object tree = integral(serialization.convertValue(crd, Map.class));
    return HEADER + serialization.asYaml(tree);
  }

  /**
   * The tree with whole doubles as longs: {@code maximum: 8.64E7} is a float the API server reads
   * for an integer field, and YAML 1.1 parsers read an exponent without a sign as a string.
   */
  private static Object integral(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(k, integral(v)));
      return out;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(ToolPolicyCrd::integral).toList();
    }
    if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) {
      return d.longValue();
    }
    return value;
  }
}
