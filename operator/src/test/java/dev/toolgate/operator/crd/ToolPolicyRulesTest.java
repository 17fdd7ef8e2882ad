package dev.toolgate.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CRD's CEL rules, evaluated with the CEL reference implementation on real documents. */
class ToolPolicyRulesTest {

  private static final CelCompiler COMPILER =
      CelCompilerFactory.standardCelCompilerBuilder()
          .setStandardMacros(dev.cel.parser.CelStandardMacro.STANDARD_MACROS)
          .addVar("self", SimpleType.DYN)
          .build();
  private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().build();
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private static boolean holds(String rule, String document) throws Exception {
    Object self = cel(YAML.unmarshal(document, Map.class));
    return (Boolean)
        RUNTIME.createProgram(COMPILER.compile(rule).getAst()).eval(Map.of("self", self));
  }

  /** CEL integers are 64-bit: JSON numbers become Long or Double. */
  private static Object cel(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put((String) k, cel(v)));
      return out;
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      list.forEach(v -> out.add(cel(v)));
      return out;
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      return ((Number) value).longValue();
    }
    if (value instanceof Float || value instanceof java.math.BigDecimal) {
      return ((Number) value).doubleValue();
    }
    return value;
  }

  private static String spec(String specYaml) {
    return "apiVersion: toolgate.dev/v1alpha1\nkind: ToolPolicy\nmetadata: {name: p}\nspec:\n"
        + specYaml;
  }

  @Test
  void seed000sPolicyPassesEveryRule() throws Exception {
    String seed = Files.readString(Path.of("../e2e/demo/toolpolicy.yaml"));

    for (String rule :
        List.of(
            ToolPolicyRules.BACKEND_BEFORE_TRANSPORT,
            ToolPolicyRules.TRANSPORT_LEAVES_RESERVE,
            ToolPolicyRules.AGENT_BEFORE_JOURNEY,
            ToolPolicyRules.UPSTREAMS,
            ToolPolicyRules.ATTEMPTS,
            ToolPolicyRules.RATIOS,
            ToolPolicyRules.NON_IDEMPOTENT_NEVER_RETRIED,
            ToolPolicyRules.RETRIED_WRITE_NEEDS_LOOKUP)) {
      assertThat(holds(rule, seed)).as(rule).isTrue();
    }
  }

  @Test
  void budgetLayersMustNestWithTheDefaultsFillingTheGaps() throws Exception {
    assertThat(
            holds(ToolPolicyRules.BACKEND_BEFORE_TRANSPORT, spec("  budget: {backendMs: 12000}\n")))
        .isFalse();
    assertThat(
            holds(ToolPolicyRules.BACKEND_BEFORE_TRANSPORT, spec("  budget: {backendMs: 9000}\n")))
        .isTrue();
    assertThat(
            holds(
                ToolPolicyRules.TRANSPORT_LEAVES_RESERVE, spec("  budget: {transportMs: 13000}\n")))
        .isFalse();
    assertThat(holds(ToolPolicyRules.AGENT_BEFORE_JOURNEY, spec("  budget: {agentMs: 20000}\n")))
        .isFalse();
    assertThat(holds(ToolPolicyRules.BACKEND_BEFORE_TRANSPORT, spec("  mode: enforce\n"))).isTrue();
  }

  @Test
  void upstreamsAreNamedLikePathSegmentsAndReachedOverHttp() throws Exception {
    assertThat(holds(ToolPolicyRules.UPSTREAMS, spec("  mode: enforce\n"))).isFalse();
    assertThat(
            holds(
                ToolPolicyRules.UPSTREAMS,
                spec("  upstreams: [{name: 'a b', url: 'http://x/mcp'}]\n")))
        .isFalse();
    assertThat(
            holds(ToolPolicyRules.UPSTREAMS, spec("  upstreams: [{name: api, url: 'ftp://x'}]\n")))
        .isFalse();
    assertThat(
            holds(
                ToolPolicyRules.UPSTREAMS,
                spec("  upstreams: [{name: api, url: 'https://x:8443/mcp'}]\n")))
        .isTrue();
    assertThat(
            holds(
                ToolPolicyRules.ATTEMPTS, spec("  tools: [{name: t, retry: {maxAttempts: 11}}]\n")))
        .isFalse();
    assertThat(
            holds(
                ToolPolicyRules.ATTEMPTS, spec("  tools: [{name: t, retry: {maxAttempts: 0}}]\n")))
        .isFalse();
  }

  @Test
  void ratiosMustLieInZeroToOne() throws Exception {
    assertThat(
            holds(
                ToolPolicyRules.RATIOS,
                spec("  tools: [{name: t, breaker: {failureRatio: 1.5}}]\n")))
        .isFalse();
    assertThat(
            holds(
                ToolPolicyRules.RATIOS,
                spec("  tools: [{name: t, breaker: {slowCallRatio: 0.0}}]\n")))
        .isFalse();
    assertThat(
            holds(
                ToolPolicyRules.RATIOS,
                spec("  tools: [{name: t, breaker: {failureRatio: 0.5}}]\n")))
        .isTrue();
  }

  @Test
  void writesAreNotRetriedWithoutAWayToFindTheirOperation() throws Exception {
    assertThat(
            holds(
                ToolPolicyRules.NON_IDEMPOTENT_NEVER_RETRIED,
                spec(
                    "  tools: [{name: t, effect: non_idempotent_write, retry: {maxAttempts: 2}}]\n")))
        .isFalse();
    assertThat(
            holds(
                ToolPolicyRules.NON_IDEMPOTENT_NEVER_RETRIED,
                spec("  tools: [{name: t, retry: {maxAttempts: 2}}]\n")))
        .as("unlisted effect means non-idempotent")
        .isFalse();
    assertThat(
            holds(
                ToolPolicyRules.NON_IDEMPOTENT_NEVER_RETRIED,
                spec("  tools: [{name: t, effect: read_only, retry: {maxAttempts: 3}}]\n")))
        .isTrue();
    assertThat(
            holds(
                ToolPolicyRules.RETRIED_WRITE_NEEDS_LOOKUP,
                spec("  tools: [{name: t, effect: idempotent_write, retry: {maxAttempts: 2}}]\n")))
        .isFalse();
    assertThat(
            holds(
                ToolPolicyRules.RETRIED_WRITE_NEEDS_LOOKUP,
                spec(
                    "  tools: [{name: t, effect: idempotent_write, retry: {maxAttempts: 2},"
                        + " idempotency: {lookup: {tool: l, argument: k}}}]\n")))
        .isTrue();
  }
}
