package dev.toolgate.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
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
    try (FileInputStream in = new FileInputStream("../crds/toolpolicies.toolgate.dev.yaml")) {
      source = Rendered.SERIALIZATION.unmarshal(in, CustomResourceDefinition.class);
    }
    assertThat(shipped).isEqualTo(source);
    assertThat(Files.isSymbolicLink(Path.of("toolgate/crds/toolpolicies.toolgate.dev.yaml")))
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
  void runsTheStateServiceOnToolgatesOwnImageAndPointsTheOperatorAtIt() {
    Rendered rendered = Rendered.defaults();
    StatefulSet members = rendered.one(StatefulSet.class);
    Service headless = rendered.named(Service.class, members.getSpec().getServiceName());
    assertThat(headless.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(members.getSpec().getReplicas()).isEqualTo(3);
    assertThat(members.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(members.getSpec().getSelector().getMatchLabels())
        .containsAllEntriesOf(headless.getSpec().getSelector());
    Container state = members.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(state.getImage()).startsWith("ghcr.io/toolgate/state:");
    String operatorAccount =
        rendered.one(Deployment.class).getSpec().getTemplate().getSpec().getServiceAccountName();
    assertThat(state.getArgs())
        .contains(
            "--token-review",
            "--audience=toolgate-state",
            "--publisher=system:serviceaccount:" + Rendered.NAMESPACE + ":" + operatorAccount)
        .anySatisfy(
            arg ->
                assertThat(arg)
                    .startsWith("--members=toolgate-state-0." + headless.getMetadata().getName())
                    .contains("toolgate-state-2."));
    assertThat(state.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    PodDisruptionBudget budget = rendered.named(PodDisruptionBudget.class, "toolgate-state");
    assertThat(budget.getSpec().getSelector().getMatchLabels())
        .isEqualTo(members.getSpec().getSelector().getMatchLabels());

    Service api = rendered.named(Service.class, "toolgate-state");
    assertThat(api.getSpec().getPorts().get(0).getPort()).isEqualTo(8443);
    assertThat(env(operatorContainer(rendered), "TOOLGATE_STATE_SERVICE"))
        .isEqualTo(api.getMetadata().getName());
    assertThat(env(operatorContainer(rendered), "TOOLGATE_STATE_PORT")).isEqualTo("8443");
    assertThat(
            members.getSpec().getTemplate().getSpec().getVolumes().stream()
                .filter(v -> v.getSecret() != null)
                .map(v -> v.getSecret().getSecretName()))
        .as("the TLS Secret the operator creates")
        .containsExactly(api.getMetadata().getName() + "-tls");
    var projected =
        rendered.one(Deployment.class).getSpec().getTemplate().getSpec().getVolumes().stream()
            .filter(v -> v.getName().equals("state"))
            .findFirst()
            .orElseThrow()
            .getProjected();
    assertThat(projected.getSources())
        .anySatisfy(
            source ->
                assertThat(source.getServiceAccountToken().getAudience())
                    .isEqualTo(InjectionOptions.STATE_AUDIENCE));
  }

  @Test
  void letsOnlyStateMembersReachTheMemberPortAndAnyoneTheAuthenticatedApi() {
    Rendered rendered = Rendered.defaults();
    NetworkPolicy policy = rendered.one(NetworkPolicy.class);
    Map<String, String> members =
        rendered.one(StatefulSet.class).getSpec().getSelector().getMatchLabels();

    assertThat(policy.getSpec().getPodSelector().getMatchLabels()).isEqualTo(members);
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
    assertThat(policy.getSpec().getIngress())
        .hasSize(2)
        .anySatisfy(
            rule -> {
              assertThat(rule.getPorts())
                  .singleElement()
                  .satisfies(p -> assertThat(p.getPort().getStrVal()).isEqualTo("member"));
              assertThat(rule.getFrom())
                  .singleElement()
                  .satisfies(
                      peer -> {
                        assertThat(peer.getPodSelector().getMatchLabels()).isEqualTo(members);
                        assertThat(peer.getNamespaceSelector()).isNull();
                      });
            })
        .anySatisfy(
            rule -> {
              assertThat(rule.getPorts())
                  .singleElement()
                  .satisfies(p -> assertThat(p.getPort().getStrVal()).isEqualTo("api"));
              assertThat(rule.getFrom()).isNullOrEmpty();
            });
  }

  @Test
  void grantsTheStateServiceTokenReviewsAndNothingElse() {
    Rendered rendered = Rendered.defaults();
    ClusterRole role = rendered.named(ClusterRole.class, "toolgate-state");
    ClusterRoleBinding binding = rendered.named(ClusterRoleBinding.class, "toolgate-state");

    assertThat(role.getRules())
        .singleElement()
        .satisfies(
            rule -> {
              assertThat(rule.getApiGroups()).containsExactly("authentication.k8s.io");
              assertThat(rule.getResources()).containsExactly("tokenreviews");
              assertThat(rule.getVerbs()).containsExactly("create");
            });
    assertThat(binding.getSubjects())
        .singleElement()
        .satisfies(
            subject ->
                assertThat(subject.getName())
                    .isEqualTo(
                        rendered
                            .one(StatefulSet.class)
                            .getSpec()
                            .getTemplate()
                            .getSpec()
                            .getServiceAccountName()));
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
    assertThat(env(operator, "TOOLGATE_APPROVAL_SECRET")).isEqualTo("toolgate-approval-keys");
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
        Rendered.with(Map.of("state.enabled", false, "metrics.podMonitor.enabled", true));
    assertThat(rendered.all(StatefulSet.class)).isEmpty();
    assertThat(rendered.all(PodDisruptionBudget.class))
        .extracting(b -> b.getMetadata().getName())
        .containsExactly("toolgate-operator");
    assertThat(rendered.all(NetworkPolicy.class)).isEmpty();
    assertThat(operatorContainer(rendered).getEnv())
        .noneMatch(e -> e.getName().equals("TOOLGATE_STATE_SERVICE"));
    GenericKubernetesResource monitor =
        (GenericKubernetesResource) rendered.kind("PodMonitor").get(0);
    Map<?, ?> spec = (Map<?, ?>) monitor.getAdditionalProperties().get("spec");
    assertThat(((Map<?, ?>) spec.get("selector")).get("matchLabels"))
        .isEqualTo(Map.of(InjectionOptions.LABEL_SIDECAR, "true"));
    assertThat(spec.get("podMetricsEndpoints").toString()).contains("port=admin", "path=/metrics");
    GenericKubernetesResource operatorMonitor =
        (GenericKubernetesResource) rendered.kind("PodMonitor").get(1);
    Map<?, ?> operatorSpec = (Map<?, ?>) operatorMonitor.getAdditionalProperties().get("spec");
    assertThat(((Map<?, ?>) operatorSpec.get("selector")).get("matchLabels"))
        .isEqualTo(rendered.one(Deployment.class).getSpec().getSelector().getMatchLabels());
    assertThat(operatorSpec.get("podMetricsEndpoints").toString())
        .contains("port=health", "path=/metrics");
  }

  @Test
  void requiresMembersOnDistinctNodesWhenAntiAffinityIsHard() {
    StatefulSet members =
        Rendered.with(Map.of("state.antiAffinity", "hard")).one(StatefulSet.class);
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
    assertThatThrownBy(() -> Rendered.with(Map.of("state.replica", 3)))
        .hasMessageContaining("replica");
  }
}
