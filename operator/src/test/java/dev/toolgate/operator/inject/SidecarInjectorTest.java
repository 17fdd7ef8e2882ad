package dev.toolgate.operator.inject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.JsonPatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The injection patch, as a golden file (regenerate with {@code -Dtoolgate.regenerate=true}), and
 * what it does once applied.
 */
public class SidecarInjectorTest {

  public static final Path POD = Path.of("src/test/resources/golden/agent-pod.yaml");
  static final Path GOLDEN = Path.of("src/test/resources/golden/agent-pod.patch.json");
  static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** A public key set, fixed so that the golden patch stays the same from run to run. */
  static final String CONFIG_KEYS =
      "{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"operator-golden\","
          + "\"x\":\"hGPtWlnA0E55jFqtsNFophEZ7ERpwiKll6L-PbwEJCg\"}]}";

  public static final InjectionOptions OPTIONS =
      new InjectionOptions(
          "ghcr.io/toolgate/sidecar:0.1.0",
          "50m",
          "96Mi",
          "160Mi",
          "",
          "toolgate",
          true,
          "toolgate-approval-keys",
          CONFIG_KEYS,
          dev.toolgate.policy.config.ListenAddress.DEFAULT_PROXY_PORT,
          dev.toolgate.policy.config.ListenAddress.DEFAULT_ADMIN_PORT,
          java.util.List.of());

  private final SidecarInjector injector = new SidecarInjector(OPTIONS);

  private static Pod pod() throws Exception {
    return SERIALIZATION.unmarshal(Files.readString(POD), Pod.class);
  }

  private static Pod apply(Pod pod, String patch) {
    JsonNode patched =
        JsonPatch.apply(
            SERIALIZATION.unmarshal(patch, JsonNode.class),
            SERIALIZATION.convertValue(pod, JsonNode.class));
    return SERIALIZATION.convertValue(patched, Pod.class);
  }

  @Test
  void producesTheGoldenPatch() throws Exception {
    String patch = injector.patch(pod());
    if (Boolean.getBoolean("toolgate.regenerate")) {
      Files.writeString(GOLDEN, patch + "\n");
    }

    assertThat(patch + "\n").isEqualTo(Files.readString(GOLDEN));
  }

  @Test
  void mountsTheStateServiceTokenIntoTheSidecarContainerAloneWithItsOwnAudience() throws Exception {
    Pod injected = apply(pod(), injector.patch(pod()));

    assertThat(injected.getSpec().getVolumes())
        .filteredOn(v -> v.getName().equals("toolgate-state-token"))
        .singleElement()
        .satisfies(
            v -> {
              var token = v.getProjected().getSources().get(0).getServiceAccountToken();
              assertThat(token.getAudience()).isEqualTo("toolgate-state");
              assertThat(token.getExpirationSeconds()).isEqualTo(600L);
            });
    assertThat(injected.getSpec().getInitContainers().get(0).getVolumeMounts())
        .anySatisfy(m -> assertThat(m.getName()).isEqualTo("toolgate-state-token"));
    assertThat(injected.getSpec().getContainers())
        .allSatisfy(
            agent ->
                assertThat(agent.getVolumeMounts())
                    .noneMatch(m -> m.getName().equals("toolgate-state-token")));
  }

  @Test
  void mountsTheAdminTokenNotificationKeyAndUpstreamCredentialsIntoTheSidecarAlone()
      throws Exception {
    Pod injected = apply(pod(), injector.patch(pod()));

    assertThat(injected.getSpec().getVolumes())
        .filteredOn(
            v -> v.getName().equals("toolgate-admin") || v.getName().equals("toolgate-notify"))
        .extracting(v -> v.getSecret().getSecretName() + ":" + v.getSecret().getOptional())
        .containsExactlyInAnyOrder(
            InjectionOptions.ADMIN_SECRET + ":true", InjectionOptions.NOTIFY_SECRET + ":true");
    assertThat(injected.getSpec().getInitContainers().get(0).getVolumeMounts())
        .extracting(m -> m.getName() + "=" + m.getMountPath())
        .contains(
            "toolgate-admin=" + InjectionOptions.ADMIN_DIR,
            "toolgate-notify=" + InjectionOptions.NOTIFY_DIR,
            "toolgate-upstreams=" + InjectionOptions.UPSTREAMS_DIR);
    assertThat(injected.getSpec().getContainers())
        .allSatisfy(
            agent ->
                assertThat(agent.getVolumeMounts())
                    .noneMatch(
                        m ->
                            m.getName().equals("toolgate-admin")
                                || m.getName().equals("toolgate-notify")
                                || m.getName().equals("toolgate-upstreams")));
  }

  @Test
  void tellsTheSidecarItsWorkloadFromThePodsOwnerNotFromAnythingTheAgentSends() throws Exception {
    Pod injected = apply(pod(), injector.patch(pod(), "ops"));

    assertThat(injected.getSpec().getInitContainers().get(0).getEnv())
        .filteredOn(e -> e.getName().equals(InjectionOptions.ENV_AGENT_ID))
        .singleElement()
        .satisfies(e -> assertThat(e.getValue()).isEqualTo("ops/Deployment/ops-assistant"));
  }

  @Test
  void givesTheConfigurationKeysToTheSidecarContainerAloneAndNoPrivateKey() throws Exception {
    Pod injected = apply(pod(), injector.patch(pod()));

    Container sidecar = injected.getSpec().getInitContainers().get(0);
    assertThat(sidecar.getEnv())
        .filteredOn(e -> e.getName().equals(InjectionOptions.ENV_CONFIG_KEYS))
        .singleElement()
        .satisfies(e -> assertThat(e.getValue()).isEqualTo(CONFIG_KEYS));
    assertThat(injected.getSpec().getContainers())
        .allSatisfy(
            agent ->
                assertThat(agent.getEnv())
                    .noneMatch(e -> e.getName().equals(InjectionOptions.ENV_CONFIG_KEYS)));
    assertThat(injector.patch(pod())).doesNotContain("\"d\":");
  }

  @Test
  void addsANativeSidecarThatStartsFirstAndTellsTheAgentWhereToGo() throws Exception {
    Pod injected = apply(pod(), injector.patch(pod()));

    Container sidecar = injected.getSpec().getInitContainers().get(0);
    assertThat(sidecar.getName()).isEqualTo("toolgate-sidecar");
    assertThat(sidecar.getRestartPolicy()).isEqualTo("Always");
    assertThat(sidecar.getStartupProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(sidecar.getArgs()).containsExactly("--config", "/etc/toolgate/config/sidecar.yaml");
    assertThat(injected.getSpec().getVolumes())
        .anySatisfy(
            v ->
                assertThat(v.getConfigMap() == null ? null : v.getConfigMap().getName())
                    .isEqualTo("toolgate-deployment-tools"));
    Container agent = injected.getSpec().getContainers().get(0);
    assertThat(agent.getEnv())
        .extracting(e -> e.getName() + "=" + e.getValue())
        .contains("LOG_LEVEL=info", "TOOLGATE_MCP_BASE_URL=http://127.0.0.1:17000/mcp");
    assertThat(injected.getMetadata().getAnnotations())
        .containsEntry("toolgate.dev/injected", "policy=deployment-tools");
  }

  @Test
  void addsASidecarThatMeetsTheRestrictedPodSecurityStandard() throws Exception {
    Pod injected = apply(pod(), injector.patch(pod()));

    SecurityContext context = injected.getSpec().getInitContainers().get(0).getSecurityContext();
    assertThat(context.getRunAsNonRoot()).isTrue();
    assertThat(context.getAllowPrivilegeEscalation()).isFalse();
    assertThat(context.getReadOnlyRootFilesystem()).isTrue();
    assertThat(context.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(context.getCapabilities().getAdd()).isNullOrEmpty();
    assertThat(context.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(context.getPrivileged()).isNotEqualTo(Boolean.TRUE);
  }

  @Test
  void neverInjectsTwiceNorWithoutTheAnnotationNorIntoItsOwnNamespace() throws Exception {
    Pod injected = apply(pod(), injector.patch(pod()));
    Pod plain = pod();
    plain.getMetadata().setAnnotations(Map.of());

    assertThat(injector.decide(pod(), "ops").inject()).isTrue();
    assertThat(injector.decide(injected, "ops").reasons()).containsExactly("already injected");
    assertThat(injector.decide(plain, "ops").inject()).isFalse();
    assertThat(injector.decide(pod(), "toolgate").reasons().get(0))
        .contains("operator's namespace");
  }

  @Test
  void addsARegularContainerWhereNativeSidecarsAreMissing() throws Exception {
    SidecarInjector old =
        new SidecarInjector(
            new InjectionOptions("img", "50m", "96Mi", "160Mi", "", "toolgate", false, "k"));

    Pod injected = apply(pod(), old.patch(pod()));

    assertThat(injected.getSpec().getInitContainers()).isNullOrEmpty();
    assertThat(injected.getSpec().getContainers())
        .extracting(Container::getName)
        .containsExactly("toolgate-sidecar", "agent");
  }

  @Test
  void mapsTheImagesClientModeArchiveWhenNoJavaOptionsAreGiven() throws Exception {
    SidecarInjector plain =
        new SidecarInjector(
            new InjectionOptions("img", "50m", "96Mi", "160Mi", "", "toolgate", true, "k"));

    Pod injected = apply(pod(), plain.patch(pod()));

    assertThat(injected.getSpec().getInitContainers().get(0).getEnv())
        .extracting(e -> e.getName() + "=" + e.getValue())
        .contains("JDK_JAVA_OPTIONS=-XX:SharedArchiveFile=/app/toolgate-sidecar-client.jsa")
        .filteredOn(e -> e.startsWith("JDK_JAVA_OPTIONS="))
        .hasSize(1);
  }

  @Test
  void passesTheJavaOptionsToTheSidecarJvmOnly() throws Exception {
    SidecarInjector compact =
        new SidecarInjector(
            new InjectionOptions(
                "img", "50m", "96Mi", "160Mi", " -XX:TieredStopAtLevel=1 ", "toolgate", true, "k"));

    Pod injected = apply(pod(), compact.patch(pod()));

    assertThat(injected.getSpec().getInitContainers().get(0).getEnv())
        .extracting(e -> e.getName() + "=" + e.getValue())
        .contains(
            "JDK_JAVA_OPTIONS=-XX:SharedArchiveFile=/app/toolgate-sidecar-client.jsa -XX:TieredStopAtLevel=1")
        .filteredOn(e -> e.startsWith("JDK_JAVA_OPTIONS="))
        .hasSize(1);
    assertThat(injected.getSpec().getContainers().get(0).getEnv())
        .extracting(e -> e.getName())
        .doesNotContain("JDK_JAVA_OPTIONS");
  }

  @Test
  void refusesJavaOptionsThatAreNotOptions() {
    assertThatThrownBy(
            () ->
                new InjectionOptions(
                    "img", "50m", "96Mi", "160Mi", "-Xss1m -jar other.jar", "toolgate", true, "k"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'-Xss1m -jar other.jar'");
    assertThatThrownBy(
            () ->
                new InjectionOptions("img", "50m", "96Mi", "160Mi", "Main", "toolgate", true, "k"))
        .hasMessageContaining("each starting with '-'");
  }

  private static Pod annotated(Map<String, String> extra) throws Exception {
    Pod pod = pod();
    pod.getMetadata().getAnnotations().putAll(extra);
    return pod;
  }

  private static Container sidecarOf(Pod injected) {
    return injected.getSpec().getInitContainers().stream()
        .filter(c -> c.getName().equals(InjectionOptions.CONTAINER))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aPodTunesItsOwnSidecarByAnnotation() throws Exception {
    Pod pod =
        annotated(
            Map.of(
                InjectionOptions.ANNOTATION_CPU_REQUEST, "20m",
                InjectionOptions.ANNOTATION_MEMORY_REQUEST, "128Mi",
                InjectionOptions.ANNOTATION_MEMORY_LIMIT, "256Mi",
                InjectionOptions.ANNOTATION_WARMUP_CALLS, "0",
                InjectionOptions.ANNOTATION_LOG_LEVEL, "debug"));

    Container sidecar = sidecarOf(apply(pod, injector.patch(pod)));

    assertThat(sidecar.getResources().getRequests().get("cpu").toString()).isEqualTo("20m");
    assertThat(sidecar.getResources().getRequests().get("memory").toString()).isEqualTo("128Mi");
    assertThat(sidecar.getResources().getLimits().get("memory").toString()).isEqualTo("256Mi");
    assertThat(sidecar.getArgs()).containsSubsequence("--warmup-calls", "0");
    assertThat(sidecar.getEnv())
        .anySatisfy(
            e -> {
              assertThat(e.getName()).isEqualTo(InjectionOptions.ENV_JAVA_OPTIONS);
              assertThat(e.getValue())
                  .endsWith("-D" + SidecarInjector.LOG_LEVEL_PROPERTY + "=debug");
            });
    assertThat(injector.decide(pod, "ops").warnings()).isEmpty();
  }

  @Test
  void anOverrideItCannotUseIsLeftOutWithAWarningAndTheDefaultApplies() throws Exception {
    Pod pod =
        annotated(
            Map.of(
                InjectionOptions.ANNOTATION_MEMORY_LIMIT, "16Mi",
                InjectionOptions.ANNOTATION_WARMUP_CALLS, "-1; rm -rf /",
                InjectionOptions.ANNOTATION_LOG_LEVEL, "verbose -Dx=" + "y".repeat(500)));

    Container sidecar = sidecarOf(apply(pod, injector.patch(pod)));
    var decision = injector.decide(pod, "ops");

    assertThat(decision.inject()).isTrue();
    assertThat(sidecar.getResources().getLimits().get("memory").toString()).isEqualTo("160Mi");
    assertThat(sidecar.getArgs()).doesNotContain("--warmup-calls");
    assertThat(sidecar.getEnv())
        .noneMatch(e -> e.getValue() != null && e.getValue().contains("-Dx="));
    assertThat(decision.warnings())
        .hasSize(3)
        .anySatisfy(w -> assertThat(w).startsWith(InjectionOptions.ANNOTATION_MEMORY_LIMIT))
        .allSatisfy(w -> assertThat(w.length()).isLessThan(200));
  }

  @Test
  void theSidecarListensOnTheConfiguredPortsAndIsPulledWithTheConfiguredSecrets() throws Exception {
    SidecarInjector elsewhere =
        new SidecarInjector(
            OPTIONS.withPorts(18000, 18020, java.util.List.of("registry", "mirror")));
    Pod pod = pod();
    pod.getSpec()
        .setImagePullSecrets(
            java.util.List.of(
                new io.fabric8.kubernetes.api.model.LocalObjectReference("registry")));

    Pod injected = apply(pod, elsewhere.patch(pod));

    assertThat(sidecarOf(injected).getPorts())
        .extracting(p -> p.getContainerPort())
        .containsExactly(18000, 18020);
    assertThat(injected.getSpec().getContainers().get(0).getEnv())
        .anySatisfy(e -> assertThat(e.getValue()).isEqualTo("http://127.0.0.1:18000/mcp"));
    assertThat(injected.getSpec().getImagePullSecrets())
        .extracting(r -> r.getName())
        .containsExactly("registry", "mirror");
    assertThatThrownBy(() -> OPTIONS.withPorts(17000, 17000, java.util.List.of()))
        .hasMessageContaining("must differ");
    assertThatThrownBy(() -> OPTIONS.withPorts(80, 17020, java.util.List.of()))
        .hasMessageContaining("1024 to 65535");
  }

  @Test
  void theExampleAgentGetsItsSidecarAndTheAddressOfItsMcpServers() throws Exception {
    io.fabric8.kubernetes.api.model.apps.Deployment example =
        SERIALIZATION.unmarshal(
            Files.readString(Path.of("../examples/agent.yaml")),
            io.fabric8.kubernetes.api.model.apps.Deployment.class);
    Pod pod =
        new io.fabric8.kubernetes.api.model.PodBuilder()
            .withMetadata(example.getSpec().getTemplate().getMetadata())
            .withSpec(example.getSpec().getTemplate().getSpec())
            .editMetadata()
            .withNamespace("agents")
            .endMetadata()
            .build();

    Pod injected = apply(pod, injector.patch(pod, "agents"));

    assertThat(injector.decide(pod, "agents").inject()).isTrue();
    assertThat(sidecarOf(injected).getVolumeMounts()).isNotEmpty();
    assertThat(injected.getSpec().getVolumes())
        .anySatisfy(
            v ->
                assertThat(v.getConfigMap() == null ? null : v.getConfigMap().getName())
                    .isEqualTo("toolgate-agent-tools"));
    assertThat(injected.getSpec().getContainers().get(0).getEnv())
        .anySatisfy(
            e -> {
              assertThat(e.getName()).isEqualTo(InjectionOptions.ENV_MCP_BASE);
              assertThat(e.getValue()).isEqualTo("http://127.0.0.1:17000/mcp");
            });
    assertThat(injected.getSpec().getContainers().get(0).getArgs().get(0))
        .contains("$TOOLGATE_MCP_BASE_URL/deployment-api");
  }
}
