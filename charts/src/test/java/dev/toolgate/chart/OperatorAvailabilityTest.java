package dev.toolgate.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelRuntimeFactory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchCondition;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An operator outage cannot block pods that did not ask for Toolgate, and the operator itself rides
 * out drains, node and zone failures and its own restarts: the rendered chart as the API server and
 * the kubelet will read it.
 */
class OperatorAvailabilityTest {

  private static Container operator(Rendered rendered) {
    return rendered.one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
  }

  private static boolean matches(String expression, Map<String, Object> pod) throws Exception {
    var compiler =
        CelCompilerFactory.standardCelCompilerBuilder()
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addVar("object", SimpleType.DYN)
            .build();
    return (Boolean)
        CelRuntimeFactory.standardCelRuntimeBuilder()
            .build()
            .createProgram(compiler.compile(expression).getAst())
            .eval(Map.of("object", pod));
  }

  private static Map<String, Object> pod(Map<String, Object> metadata) {
    return Map.of("apiVersion", "v1", "kind", "Pod", "metadata", metadata);
  }

  @Test
  void onlyPodsAnnotatedForInjectionAreSentToTheWebhook() throws Exception {
    MatchCondition condition =
        Rendered.defaults()
            .one(MutatingWebhookConfiguration.class)
            .getWebhooks()
            .get(0)
            .getMatchConditions()
            .get(0);
    String expression = condition.getExpression();

    assertThat(
            matches(
                expression,
                pod(Map.of("name", "a", "annotations", Map.of("toolgate.dev/inject", "true")))))
        .isTrue();
    assertThat(matches(expression, pod(Map.of("name", "b")))).isFalse();
    assertThat(matches(expression, pod(Map.of("name", "c", "annotations", Map.of("x", "y")))))
        .isFalse();
    assertThat(
            matches(
                expression,
                pod(Map.of("name", "d", "annotations", Map.of("toolgate.dev/inject", "false")))))
        .isFalse();
  }

  @Test
  void onKubernetes127TheWebhookHasNoMatchConditionsAndTheObjectSelectorScopesIt() {
    Rendered old =
        Rendered.on(
            "v1.27.3", Map.of("webhook.objectSelector.matchLabels.toolgate\\.dev/agent", "true"));
    var hook = old.one(MutatingWebhookConfiguration.class).getWebhooks().get(0);

    assertThat(hook.getMatchConditions()).isEmpty();
    assertThat(hook.getObjectSelector().getMatchLabels())
        .containsEntry("toolgate.dev/agent", "true");
  }

  @Test
  void theOperatorKeepsAReplicaThroughADrainAndSpreadsOverNodesAndZones() {
    Rendered rendered = Rendered.defaults();
    Deployment deployment = rendered.one(Deployment.class);
    PodDisruptionBudget budget = rendered.named(PodDisruptionBudget.class, "toolgate-operator");
    PodSpec pod = deployment.getSpec().getTemplate().getSpec();

    assertThat(budget.getSpec().getMinAvailable().getIntVal()).isEqualTo(1);
    assertThat(budget.getSpec().getSelector().getMatchLabels())
        .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
    assertThat(pod.getTopologySpreadConstraints())
        .extracting(c -> c.getTopologyKey())
        .containsExactly("kubernetes.io/hostname", "topology.kubernetes.io/zone");
    assertThat(pod.getTopologySpreadConstraints())
        .allSatisfy(
            c ->
                assertThat(c.getLabelSelector().getMatchLabels())
                    .isEqualTo(deployment.getSpec().getSelector().getMatchLabels()));
    assertThat(pod.getTerminationGracePeriodSeconds())
        .as("5 s not ready, then 10 s to answer reviews in flight")
        .isGreaterThanOrEqualTo(15L);
    assertThat(Rendered.with(Map.of("operator.replicas", 1)).all(PodDisruptionBudget.class))
        .extracting(b -> b.getMetadata().getName())
        .doesNotContain("toolgate-operator");
  }

  @Test
  void theProbesAskTheOperatorOverHttpOnItsHealthPort() {
    Container container = operator(Rendered.defaults());
    int port =
        container.getPorts().stream()
            .filter(p -> p.getName().equals("health"))
            .findFirst()
            .orElseThrow()
            .getContainerPort();

    assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(container.getReadinessProbe().getHttpGet().getPort().getStrVal())
        .isEqualTo("health");
    assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(container.getEnv())
        .anySatisfy(
            e -> {
              assertThat(e.getName()).isEqualTo("TOOLGATE_HEALTH_PORT");
              assertThat(e.getValue()).isEqualTo(Integer.toString(port));
            });
  }

  private static String env(Rendered rendered, String name) {
    return operator(rendered).getEnv().stream()
        .filter(e -> e.getName().equals(name))
        .map(e -> e.getValue())
        .findFirst()
        .orElse(null);
  }

  @Test
  void nativeSidecarsOnlyWhereTheClusterHasThem() {
    assertThat(env(Rendered.on("v1.29.0", Map.of()), "TOOLGATE_NATIVE_SIDECARS")).isEqualTo("true");
    assertThat(env(Rendered.on("v1.28.9", Map.of()), "TOOLGATE_NATIVE_SIDECARS"))
        .isEqualTo("false");
    assertThat(
            env(
                Rendered.on("v1.31.0", Map.of("sidecar.nativeSidecars", false)),
                "TOOLGATE_NATIVE_SIDECARS"))
        .isEqualTo("false");
  }

  @Test
  void theSidecarsPortsAreOutsideIstiosAndConfigurableAndItsPullSecretsReachTheOperator() {
    Rendered defaults = Rendered.defaults();
    int mcp = Integer.parseInt(env(defaults, "TOOLGATE_SIDECAR_MCP_PORT"));
    int admin = Integer.parseInt(env(defaults, "TOOLGATE_SIDECAR_ADMIN_PORT"));
    Rendered custom =
        Rendered.with(
            Map.of(
                "sidecar.ports.mcp",
                18000,
                "sidecar.ports.admin",
                18020,
                "sidecar.imagePullSecrets[0]",
                "registry",
                "sidecar.imagePullSecrets[1]",
                "mirror"));

    assertThat(List.of(mcp, admin)).allSatisfy(p -> assertThat(p < 15000 || p > 15090).isTrue());
    assertThat(env(defaults, "TOOLGATE_SIDECAR_PULL_SECRETS")).isNull();
    assertThat(env(custom, "TOOLGATE_SIDECAR_MCP_PORT")).isEqualTo("18000");
    assertThat(env(custom, "TOOLGATE_SIDECAR_ADMIN_PORT")).isEqualTo("18020");
    assertThat(env(custom, "TOOLGATE_SIDECAR_PULL_SECRETS")).isEqualTo("registry,mirror");
  }

  @Test
  void anExternalStateServiceReplacesTheChartsOwn() {
    Rendered external =
        Rendered.with(
            Map.of(
                "state.enabled", false,
                "state.external.url", "https://state.example:8443",
                "state.external.caSecret", "state-ca"));

    assertThat(env(external, "TOOLGATE_STATE_URL")).isEqualTo("https://state.example:8443");
    assertThat(env(external, "TOOLGATE_STATE_CA_FILE")).isEqualTo("/etc/toolgate/state-ca/ca.crt");
    assertThat(env(external, "TOOLGATE_STATE_SERVICE")).isNull();
    assertThat(external.one(Deployment.class).getSpec().getTemplate().getSpec().getVolumes())
        .anySatisfy(
            v ->
                assertThat(v.getSecret() == null ? null : v.getSecret().getSecretName())
                    .isEqualTo("state-ca"))
        .anySatisfy(v -> assertThat(v.getName()).isEqualTo("state"));
    assertThatThrownBy(
            () ->
                Rendered.with(
                    Map.of(
                        "state.external.url", "https://state.example:8443",
                        "state.external.caSecret", "state-ca")))
        .hasMessageContaining("state.enabled=false");
    assertThatThrownBy(
            () ->
                Rendered.with(Map.of("state.enabled", false, "state.external.url", "http://plain")))
        .hasMessageContaining("external");
  }
}
