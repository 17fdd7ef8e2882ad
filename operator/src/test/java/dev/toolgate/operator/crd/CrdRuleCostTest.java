package dev.toolgate.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API server estimates each rule's worst-case cost from the schema's bounds at CRD creation,
 * and refuses the CRD past 10,000,000 for one rule or 100,000,000 for the sum of every rule times
 * the number of nodes it may run on. The committed CRD stays far under both, and under the run-time
 * limit of one evaluation.
 */
class CrdRuleCostTest {

  record Costed(String node, String rule, long cost, long cardinality) {}

  private static final List<Costed> RULES = new ArrayList<>();

  @BeforeAll
  static void estimateEveryRuleOfTheCommittedCrd() throws Exception {
    JSONSchemaProps root =
        CrdAdmission.committedCrd().getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
    walk(root, "", 1, RULES);
  }

  private static void walk(JSONSchemaProps node, String path, long cardinality, List<Costed> out) {
    if (node.getXKubernetesValidations() != null) {
      for (ValidationRule rule : node.getXKubernetesValidations()) {
        out.add(
            new Costed(
                path, rule.getRule(), CelCostEstimate.of(rule.getRule(), node), cardinality));
      }
    }
    if (node.getProperties() != null) {
      for (Map.Entry<String, JSONSchemaProps> p : node.getProperties().entrySet()) {
        walk(p.getValue(), path.isEmpty() ? p.getKey() : path + "." + p.getKey(), cardinality, out);
      }
    }
    if (node.getItems() != null && node.getItems().getSchema() != null) {
      long items = node.getMaxItems() == null ? Long.MAX_VALUE / 2 : node.getMaxItems();
      walk(node.getItems().getSchema(), path + "[]", Math.multiplyExact(cardinality, items), out);
    }
  }

  @Test
  void everyRuleOfToolPolicyRulesIsInTheCrd() {
    assertThat(RULES)
        .extracting(Costed::rule)
        .containsExactlyInAnyOrderElementsOf(
            ToolPolicyRules.ALL.stream().map(ToolPolicyRules.Rule::rule).toList());
  }

  @Test
  void eachRuleCostsLessThanOneRunTimeCall() {
    for (Costed rule : RULES) {
      assertThat(rule.cost())
          .as("%s at %s", rule.rule(), rule.node())
          .isPositive()
          .isLessThan(CelCostEstimate.PER_CALL_LIMIT);
    }
  }

  @Test
  void theRulesTogetherStayUnderTheCrdLimit() {
    long total = RULES.stream().mapToLong(r -> Math.multiplyExact(r.cost(), r.cardinality())).sum();

    assertThat(total).isLessThan(CelCostEstimate.PER_CRD_LIMIT / 100);
  }

  @Test
  void theListOfToolsIsTheDearestRuleAndItsCostFollowsTheBounds() {
    Costed dearest = RULES.stream().max((a, b) -> Long.compare(a.cost(), b.cost())).orElseThrow();

    assertThat(dearest.rule()).isEqualTo(ToolPolicyRules.TOOLS_NAME_AN_UPSTREAM.rule());
    // 256 tools, each against 16 upstreams, comparing names of at most 63 characters (252 bytes)
    assertThat(dearest.cost()).isBetween(256L * 16 * 26, 256L * 16 * 40);
  }

  @Test
  void anUnboundedListOrStringOrARegexIsNotEstimatedButRefused() {
    JSONSchemaProps unboundedList =
        new JSONSchemaPropsBuilder()
            .withType("object")
            .addToProperties(
                "items",
                new JSONSchemaPropsBuilder()
                    .withType("array")
                    .withNewItems()
                    .withNewSchema()
                    .withType("string")
                    .withMaxLength(8L)
                    .endSchema()
                    .endItems()
                    .build())
            .addToProperties("name", new JSONSchemaPropsBuilder().withType("string").build())
            .build();

    assertThatThrownBy(() -> CelCostEstimate.of("self.items.all(i, i == 'x')", unboundedList))
        .hasMessageContaining("unbounded list");
    assertThatThrownBy(() -> CelCostEstimate.of("self.name == 'x'", unboundedList))
        .hasMessageContaining("without maxLength");
    assertThatThrownBy(() -> CelCostEstimate.of("self.name.matches('^a')", unboundedList))
        .hasMessageContaining("matches");
  }
}
