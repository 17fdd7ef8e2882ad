package dev.toolgate.operator.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolgate.policy.config.RuntimeOptions;
import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.policy.validation.InvalidPolicyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rendered configuration, compared with a golden file (regenerate with {@code ./mvnw -pl
 * operator test -Dtest=SidecarConfigRendererTest -Dtoolgate.regenerate=true}). The sidecar's own
 * tests load the same golden file, so the two modules agree on the format.
 */
class SidecarConfigRendererTest {

  static final Path TOOL_POLICY = Path.of("../e2e/demo/toolpolicy.yaml");
  static final Path GOLDEN = Path.of("src/test/resources/golden/deployment-tools.sidecar.yaml");
  static final RenderOptions OPTIONS =
      new RenderOptions(
          7,
          "ops-assistant-prod",
          SharedStateOptions.Mode.CLIENT,
          "toolgate-hazelcast.toolgate.svc",
          List.of(),
          "approval-keys.json",
          null);

  @Test
  void rendersSeed000sToolPolicyIntoTheGoldenSidecarConfiguration() throws Exception {
    String rendered =
        SidecarConfigRenderer.render(
            SidecarConfigRenderer.parse(Files.readString(TOOL_POLICY)), OPTIONS);
    if (Boolean.getBoolean("toolgate.regenerate")) {
      Files.writeString(GOLDEN, rendered);
    }

    assertThat(rendered).isEqualTo(Files.readString(GOLDEN));
    assertThat(rendered)
        .contains("revision: 7")
        .contains("kubernetesServiceDns: \"toolgate-hazelcast.toolgate.svc\"")
        .contains("publicKeysFile: \"approval-keys.json\"")
        .contains("ratePerMinute: 120");
  }

  @Test
  void rendersTheWarmupAskedInTheSidecarsRuntimeSectionAndTheSidecarsOwnDefaultOtherwise()
      throws Exception {
    RenderOptions off =
        new RenderOptions(
            7,
            "ops-assistant-prod",
            SharedStateOptions.Mode.CLIENT,
            "toolgate-hazelcast.toolgate.svc",
            List.of(),
            "approval-keys.json",
            null,
            null,
            null,
            null,
            null,
            null,
            0);

    String rendered =
        SidecarConfigRenderer.render(
            SidecarConfigRenderer.parse(Files.readString(TOOL_POLICY)), off);

    assertThat(rendered).contains("\n  warmupCalls: 0\n");
    assertThat(
            rendered.replace(
                "warmupCalls: 0\n", "warmupCalls: " + RuntimeOptions.DEFAULT_WARMUP_CALLS + "\n"))
        .isEqualTo(Files.readString(GOLDEN));
    assertThat(off.forRevision(8).warmupCalls()).isZero();
  }

  @Test
  void anUpstreamsCredentialFilesAreReadWhereTheInjectorMountsThemAndAnAbsolutePathIsKept()
      throws Exception {
    String policy =
        Files.readString(TOOL_POLICY)
            .replace(
                "{name: deployment-api, url: \"http://deployment-mcp.ops.svc:8080/mcp\"}",
                "{name: deployment-api, url: \"https://deployment-mcp.ops.svc/mcp\", auth:"
                    + " {bearerTokenFile: api.token, clientCertificateFile: tls.crt,"
                    + " clientKeyFile: tls.key, trustedCaFile: /etc/ssl/private-ca.pem}}");

    String rendered =
        SidecarConfigRenderer.render(
            SidecarConfigRenderer.parse(policy),
            RenderOptions.injected("https://toolgate-state.toolgate-system.svc:8443", "CA", null));

    String dir = dev.toolgate.operator.inject.InjectionOptions.UPSTREAMS_DIR;
    assertThat(rendered)
        .contains("bearerTokenFile: \"" + dir + "/api.token\"")
        .contains("clientCertificateFile: \"" + dir + "/tls.crt\"")
        .contains("clientKeyFile: \"" + dir + "/tls.key\"")
        .contains("trustedCaFile: \"/etc/ssl/private-ca.pem\"");
  }

  @Test
  void refusesAWarmupOutsideTheSidecarsBounds() {
    assertThatThrownBy(
            () ->
                new RenderOptions(
                    1,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    RenderOptions.MAX_WARMUP_CALLS + 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("warmupCalls: must be between 0 (off) and 100000, was 100001");
  }

  @Test
  void refusesAnInvalidSpecWithEveryViolation() {
    String invalid =
        """
        apiVersion: toolgate.dev/v1alpha1
        kind: ToolPolicy
        metadata: {name: bad, namespace: ops}
        spec:
          budget: {transportMs: 5000, backendMs: 9000}
          upstreams: [{name: api, url: "http://api:8080/mcp"}]
          tools:
            - {name: delete_tag, upstream: api, effect: non_idempotent_write, retry: {maxAttempts: 3}}
        """;

    assertThatThrownBy(
            () -> SidecarConfigRenderer.render(SidecarConfigRenderer.parse(invalid), OPTIONS))
        .isInstanceOf(InvalidPolicyException.class)
        .hasMessageContaining("budget.backendMs (9000) must be < budget.transportMs (5000)")
        .hasMessageContaining(
            "tools[0].retry.maxAttempts: a non_idempotent_write is never retried");
  }

  @Test
  void refusesADocumentWithoutASpec() {
    assertThatThrownBy(
            () ->
                SidecarConfigRenderer.parse(
                    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
