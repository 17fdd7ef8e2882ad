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
          CONFIG_KEYS);

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
        .contains("LOG_LEVEL=info", "TOOLGATE_MCP_BASE_URL=http://127.0.0.1:15000/mcp");
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
}
