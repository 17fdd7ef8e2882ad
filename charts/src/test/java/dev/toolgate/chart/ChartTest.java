package dev.toolgate.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryYamlConfig;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import dev.toolgate.operator.inject.InjectionOptions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.FileInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code helm lint} and {@code helm template} of charts/toolgate, with the manifests checked as
 * models.
 */
class ChartTest {

  private static String env(Container container, String name) {
    return container.getEnv().stream()
        .filter(e -> e.getName().equals(name))
        .map(EnvVar::getValue)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no env " + name + " on " + container.getName()));
  }

  private static Container operatorContainer(Rendered rendered) {
    return rendered.one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
  }

  @Test
  void lintsWithoutErrors() {
    LintResult result = new Helm(Rendered.CHART).lint().strict().call();
    assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
  }

  @Test
  void shipsTheCrdOfTheRepositoryUnchanged() throws Exception {
    CustomResourceDefinition shipped =
        Rendered.SERIALIZATION.unmarshal(
            new Helm(Rendered.CHART).show().crds().call(), CustomResourceDefinition.class);
    CustomResourceDefinition source;
    try (FileInputStream in = new FileInputStream("../crds/toolpolicies.toolgate.dev-v1.yml")) {
      source = Rendered.SERIALIZATION.unmarshal(in, CustomResourceDefinition.class);
    }
    assertThat(shipped).isEqualTo(source);
    assertThat(Files.isSymbolicLink(Path.of("toolgate/crds/toolpolicies.toolgate.dev-v1.yml")))
        .as("the chart links the one CRD file rather than copying it")
        .isTrue();
  }

  @Test
  void runsTwoOperatorReplicasBehindTheWebhookServiceTheyAreConfiguredWith() {
    Rendered rendered = Rendered.defaults();
    Deployment operator = rendered.one(Deployment.class);
    assertThat(operator.getSpec().getReplicas()).isEqualTo(2);
    Map<String, String> podLabels = operator.getSpec().getTemplate().getMetadata().getLabels();
    assertThat(podLabels).containsAllEntriesOf(operator.getSpec().getSelector().getMatchLabels());

    Container container = operatorContainer(rendered);
    Service webhook = rendered.named(Service.class, env(container, "TOOLGATE_WEBHOOK_SERVICE"));
    assertThat(podLabels).containsAllEntriesOf(webhook.getSpec().getSelector());
    String targetPort = webhook.getSpec().getPorts().get(0).getTargetPort().getStrVal();
    assertThat(container.getPorts())
        .anySatisfy(
            p -> {
              assertThat(p.getName()).isEqualTo(targetPort);
              assertThat(p.getContainerPort())
                  .isEqualTo(Integer.parseInt(env(container, "TOOLGATE_WEBHOOK_PORT")));
            });

    MutatingWebhookConfiguration configuration =
        rendered.named(
            MutatingWebhookConfiguration.class, env(container, "TOOLGATE_WEBHOOK_CONFIGURATION"));
    MutatingWebhook hook = configuration.getWebhooks().get(0);
    assertThat(hook.getClientConfig().getService().getName())
        .isEqualTo(webhook.getMetadata().getName());
    assertThat(hook.getClientConfig().getService().getNamespace()).isEqualTo(Rendered.NAMESPACE);
    assertThat(hook.getClientConfig().getService().getPort())
        .isEqualTo(webhook.getSpec().getPorts().get(0).getPort());
    assertThat(hook.getClientConfig().getService().getPath()).isEqualTo("/mutate");
    assertThat(hook.getFailurePolicy()).isEqualTo("Fail");
    assertThat(hook.getTimeoutSeconds()).isEqualTo(5);
    assertThat(hook.getSideEffects()).isEqualTo("None");
    assertThat(hook.getNamespaceSelector().getMatchLabels())
        .containsEntry("toolgate.dev/injection", "enabled");
    assertThat(hook.getNamespaceSelector().getMatchExpressions())
        .anySatisfy(
            e -> {
              assertThat(e.getKey()).isEqualTo("kubernetes.io/metadata.name");
              assertThat(e.getOperator()).isEqualTo("NotIn");
              assertThat(e.getValues()).contains(Rendered.NAMESPACE, "kube-system");
            });
    assertThat(container.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
  }

  @Test
  void pointsTheOperatorAndItsSidecarsAtTheHazelcastServiceItRuns() {
    Rendered rendered = Rendered.defaults();
    StatefulSet members = rendered.one(StatefulSet.class);
    Service headless = rendered.named(Service.class, members.getSpec().getServiceName());
    assertThat(headless.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(members.getSpec().getReplicas()).isEqualTo(3);
    assertThat(members.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(members.getSpec().getSelector().getMatchLabels())
        .containsAllEntriesOf(headless.getSpec().getSelector());
    assertThat(
            members
                .getSpec()
                .getTemplate()
                .getSpec()
                .getAffinity()
                .getPodAntiAffinity()
                .getPreferredDuringSchedulingIgnoredDuringExecution())
        .hasSize(1);
    PodDisruptionBudget budget = rendered.one(PodDisruptionBudget.class);
    assertThat(budget.getSpec().getSelector().getMatchLabels())
        .isEqualTo(members.getSpec().getSelector().getMatchLabels());
    assertThat(budget.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);

    String dns = headless.getMetadata().getName() + "." + Rendered.NAMESPACE + ".svc.cluster.local";
    assertThat(env(operatorContainer(rendered), "TOOLGATE_HAZELCAST_DNS")).isEqualTo(dns);

    Config config =
        new InMemoryYamlConfig(
            rendered
                .named(ConfigMap.class, headless.getMetadata().getName())
                .getData()
                .get("hazelcast.yaml"));
    assertThat(config.getClusterName()).isEqualTo("toolgate");
    assertThat(config.getNetworkConfig().getJoin().getKubernetesConfig().isEnabled()).isTrue();
    assertThat(config.getNetworkConfig().getJoin().getKubernetesConfig().getProperty("service-dns"))
        .isEqualTo(dns);
    assertThat(config.getMapConfig("default").getBackupCount()).isEqualTo(1);
    assertThat(config.getNetworkConfig().getRestApiConfig().isEnabled())
        .as("the probes read /hazelcast/health")
        .isTrue();
  }

  @Test
  void passesTheSidecarSettingsToTheInjector() {
    Container operator =
        operatorContainer(
            Rendered.with(
                Map.of(
                    "image.tag",
                    "1.2.3",
                    "sidecar.memoryLimit",
                    "200Mi",
                    "sidecar.nativeSidecars",
                    false,
                    "sidecar.javaOpts",
                    "-XX:TieredStopAtLevel=1")));
    assertThat(env(operator, "TOOLGATE_SIDECAR_IMAGE")).isEqualTo("ghcr.io/toolgate/sidecar:1.2.3");
    assertThat(operator.getImage()).isEqualTo("ghcr.io/toolgate/operator:1.2.3");
    assertThat(env(operator, "TOOLGATE_SIDECAR_MEMORY_LIMIT")).isEqualTo("200Mi");
    assertThat(env(operator, "TOOLGATE_NATIVE_SIDECARS")).isEqualTo("false");
    assertThat(env(operator, "TOOLGATE_SIDECAR_JAVA_OPTS")).isEqualTo("-XX:TieredStopAtLevel=1");
    assertThat(env(operator, "TOOLGATE_APPROVAL_SECRET")).isEqualTo("toolgate-approval-key");
  }

  @Test
  void passesTheWarmupAskedToTheInjectorAndNoneByDefault() {
    assertThat(operatorContainer(Rendered.with(Map.of("sidecar.warmupCalls", 0))).getEnv())
        .anySatisfy(
            e ->
                assertThat(e.getName() + "=" + e.getValue())
                    .isEqualTo("TOOLGATE_SIDECAR_WARMUP_CALLS=0"));
    assertThat(operatorContainer(Rendered.with(Map.of("sidecar.warmupCalls", 100000))).getEnv())
        .anySatisfy(
            e ->
                assertThat(e.getName() + "=" + e.getValue())
                    .isEqualTo("TOOLGATE_SIDECAR_WARMUP_CALLS=100000"));
    assertThat(operatorContainer(Rendered.defaults()).getEnv())
        .noneSatisfy(e -> assertThat(e.getName()).isEqualTo("TOOLGATE_SIDECAR_WARMUP_CALLS"));
  }

  @Test
  void refusesAWarmupOutsideTheSidecarsBounds() {
    assertThatThrownBy(() -> Rendered.with(Map.of("sidecar.warmupCalls", -1)))
        .hasMessageContaining("warmupCalls");
    assertThatThrownBy(() -> Rendered.with(Map.of("sidecar.warmupCalls", 100001)))
        .hasMessageContaining("warmupCalls");
  }

  @Test
  void usesCertManagerWhenAsked() {
    Rendered rendered =
        Rendered.with(
            Map.of("webhook.certManager.enabled", true, "webhook.failurePolicy", "Ignore"));
    HasMetadata certificate = rendered.kind("Certificate").get(0);
    assertThat(rendered.kind("Issuer")).hasSize(1);
    Container operator = operatorContainer(rendered);
    String secret =
        (String)
            ((GenericKubernetesResource) certificate)
                .getAdditionalProperties().entrySet().stream()
                    .filter(e -> e.getKey().equals("spec"))
                    .map(e -> ((Map<?, ?>) e.getValue()).get("secretName"))
                    .findFirst()
                    .orElseThrow();
    assertThat(rendered.one(Deployment.class).getSpec().getTemplate().getSpec().getVolumes())
        .anySatisfy(
            v -> assertThat(v.getSecret()).isNotNull().extracting("secretName").isEqualTo(secret));
    assertThat(env(operator, "TOOLGATE_WEBHOOK_CERT_DIR")).isEqualTo("/etc/toolgate/webhook-tls");
    MutatingWebhookConfiguration configuration = rendered.one(MutatingWebhookConfiguration.class);
    assertThat(configuration.getMetadata().getAnnotations())
        .containsEntry(
            "cert-manager.io/inject-ca-from",
            Rendered.NAMESPACE + "/" + certificate.getMetadata().getName());
    assertThat(configuration.getWebhooks().get(0).getFailurePolicy()).isEqualTo("Ignore");
  }

  @Test
  void leavesOutTheSharedStateWhenDisabledAndAddsThePodMonitorWhenEnabled() {
    Rendered rendered =
        Rendered.with(Map.of("hazelcast.enabled", false, "metrics.podMonitor.enabled", true));
    assertThat(rendered.all(StatefulSet.class)).isEmpty();
    assertThat(rendered.all(PodDisruptionBudget.class)).isEmpty();
    GenericKubernetesResource monitor =
        (GenericKubernetesResource) rendered.kind("PodMonitor").get(0);
    Map<?, ?> spec = (Map<?, ?>) monitor.getAdditionalProperties().get("spec");
    assertThat(((Map<?, ?>) spec.get("selector")).get("matchLabels"))
        .isEqualTo(Map.of(InjectionOptions.LABEL_SIDECAR, "true"));
    assertThat(spec.get("podMetricsEndpoints").toString()).contains("port=admin", "path=/metrics");
  }

  @Test
  void requiresMembersOnDistinctNodesWhenAntiAffinityIsHard() {
    StatefulSet members =
        Rendered.with(Map.of("hazelcast.antiAffinity", "hard")).one(StatefulSet.class);
    assertThat(
            members
                .getSpec()
                .getTemplate()
                .getSpec()
                .getAffinity()
                .getPodAntiAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution())
        .hasSize(1);
  }

  @Test
  void shipsEachDashboardAsAConfigMapForGrafanasSidecar() throws Exception {
    Map<String, ConfigMap> dashboards =
        Rendered.defaults().all(ConfigMap.class).stream()
            .filter(c -> "1".equals(c.getMetadata().getLabels().get("grafana_dashboard")))
            .collect(Collectors.toMap(c -> c.getMetadata().getName(), c -> c));
    assertThat(dashboards)
        .containsOnlyKeys("toolgate-toolgate-agent-operations", "toolgate-toolgate-platform");
    for (ConfigMap map : dashboards.values()) {
      String file = map.getData().keySet().iterator().next();
      assertThat(map.getData().get(file))
          .isEqualTo(Files.readString(Path.of("toolgate/dashboards", file)).strip());
    }
  }

  @Test
  void refusesValuesTheSchemaForbids() {
    assertThatThrownBy(() -> Rendered.with(Map.of("webhook.failurePolicy", "Sometimes")))
        .hasMessageContaining("failurePolicy");
    assertThatThrownBy(() -> Rendered.with(Map.of("operator.replicas", 0)))
        .hasMessageContaining("replicas");
    assertThatThrownBy(() -> Rendered.with(Map.of("webhook.timeoutSeconds", 60)))
        .hasMessageContaining("timeoutSeconds");
    assertThatThrownBy(() -> Rendered.with(Map.of("sidecar.memoryLimit", "lots")))
        .hasMessageContaining("memoryLimit");
    assertThatThrownBy(() -> Rendered.with(Map.of("sidecar.javaOpts", "-Xmx64m -jar other.jar")))
        .hasMessageContaining("javaOpts");
    assertThatThrownBy(() -> Rendered.with(Map.of("hazelcast.replica", 3)))
        .hasMessageContaining("replica");
  }
}
