package dev.toolgate.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a real API server and {@code kubectl explain} need of the committed CRD that the mock server
 * never checks: every field the user writes is bounded (lists by maxItems, strings by maxLength or
 * an enum, numbers by a minimum and a maximum), every field is described, list-map keys are
 * required, and every rule names its field and its reason.
 */
class CrdIsBoundedTest {

  private static CustomResourceDefinition crd;
  private static JSONSchemaProps root;

  @BeforeAll
  static void load() throws Exception {
    crd = CrdAdmission.committedCrd();
    root = crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
  }

  private static void walk(JSONSchemaProps node, String path, Map<String, JSONSchemaProps> out) {
    out.put(path, node);
    if (node.getProperties() != null) {
      node.getProperties().forEach((name, child) -> walk(child, path + "." + name, out));
    }
    if (node.getItems() != null && node.getItems().getSchema() != null) {
      walk(node.getItems().getSchema(), path + "[]", out);
    }
  }

  private static Map<String, JSONSchemaProps> nodes(String under) {
    Map<String, JSONSchemaProps> out = new java.util.LinkedHashMap<>();
    walk(root.getProperties().get(under), under, out);
    return out;
  }

  @Test
  void everyListStringAndNumberOfTheSpecIsBounded() {
    List<String> unbounded = new ArrayList<>();
    nodes("spec")
        .forEach(
            (path, node) -> {
              switch (node.getType()) {
                case "array" -> {
                  if (node.getMaxItems() == null) unbounded.add(path + " has no maxItems");
                }
                case "string" -> {
                  boolean enumerated = node.getEnum() != null && !node.getEnum().isEmpty();
                  if (node.getMaxLength() == null && !enumerated) {
                    unbounded.add(path + " has no maxLength");
                  }
                }
                case "integer", "number" -> {
                  if (node.getMinimum() == null || node.getMaximum() == null) {
                    unbounded.add(path + " has no minimum or maximum");
                  }
                }
                default -> {}
              }
            });

    assertThat(unbounded).isEmpty();
  }

  @Test
  void everyFieldOfSpecAndStatusIsDescribedForKubectlExplain() {
    List<String> silent = new ArrayList<>();
    for (String part : List.of("spec", "status")) {
      nodes(part)
          .forEach(
              (path, node) -> {
                boolean item = path.endsWith("[]");
                if (!item
                    && !path.equals(part)
                    && (node.getDescription() == null || node.getDescription().isBlank())) {
                  silent.add(path);
                }
              });
    }

    assertThat(silent).isEmpty();
  }

  @Test
  void toolsAndUpstreamsAreListMapsKeyedByRequiredFields() {
    JSONSchemaProps tools = ToolPolicyCrd.node(root, "spec.tools");
    JSONSchemaProps upstreams = ToolPolicyCrd.node(root, "spec.upstreams");

    assertThat(tools.getXKubernetesListType()).isEqualTo("map");
    assertThat(tools.getXKubernetesListMapKeys()).containsExactly("upstream", "name");
    assertThat(tools.getItems().getSchema().getRequired()).contains("upstream", "name");
    assertThat(upstreams.getXKubernetesListMapKeys()).containsExactly("name");
    assertThat(upstreams.getItems().getSchema().getRequired()).contains("name", "url");
  }

  @Test
  void everyRuleNamesItsFieldAndAReasonTheApiServerKnows() {
    Set<String> reasons =
        Set.of(
            "FieldValueInvalid",
            "FieldValueRequired",
            "FieldValueForbidden",
            "FieldValueDuplicate");
    Map<String, JSONSchemaProps> all = new java.util.LinkedHashMap<>();
    walk(root, "", all);
    List<ValidationRule> rules = new ArrayList<>();
    all.forEach(
        (path, node) -> {
          if (node.getXKubernetesValidations() != null) {
            for (ValidationRule rule : node.getXKubernetesValidations()) {
              rules.add(rule);
              String field = rule.getFieldPath().substring(1).split("\\.")[0];
              assertThat(node.getProperties())
                  .as(path + " " + rule.getFieldPath())
                  .containsKey(field);
            }
          }
        });

    assertThat(rules).hasSize(ToolPolicyRules.ALL.size());
    assertThat(rules).allSatisfy(rule -> assertThat(rule.getReason()).isIn(reasons));
    assertThat(rules).allSatisfy(rule -> assertThat(rule.getMessage()).isNotBlank());
  }

  @Test
  void theCrdIsFoundByItsCategoryAndShortNameAndServesOneVersion() {
    assertThat(crd.getSpec().getNames().getCategories()).containsExactly("toolgate");
    assertThat(crd.getSpec().getNames().getShortNames()).containsExactly("tp");
    assertThat(crd.getSpec().getVersions())
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.getName()).isEqualTo(ToolPolicy.VERSION);
              assertThat(v.getServed()).isTrue();
              assertThat(v.getStorage()).isTrue();
              assertThat(v.getSubresources().getStatus()).isNotNull();
            });
  }
}
