package dev.toolgate.operator.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolgate.operator.crd.ToolPolicy;
import dev.toolgate.operator.sign.ConfigSigner;
import dev.toolgate.operator.sign.Publication;
import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.policy.config.SidecarConfig;
import dev.toolgate.sidecar.config.ConfigException;
import dev.toolgate.sidecar.config.ConfigLoader;
import dev.toolgate.sidecar.config.ConfigTrust;
import dev.toolgate.trust.SigningKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The renderer and the sidecar share one configuration model: the file the renderer writes, read by
 * the sidecar's own loader, gives back the very record the renderer built.
 */
class RenderedConfigBindsInTheSidecarTest {

  static final Path TOOL_POLICY = Path.of("../e2e/demo/toolpolicy.yaml");

  @TempDir Path dir;

  private static final ConfigSigner SIGNER =
      new ConfigSigner(SigningKey.generate("operator-render-test"));

  /** The sidecar trusts the operator's key alone: the render is read as signed, or not at all. */
  private final ConfigLoader loader =
      new ConfigLoader(Clock.systemUTC(), ConfigTrust.signedBy(SIGNER.publicKeys()));

  @Test
  void anInjectedSidecarsConfigurationBindsToTheRecordTheRendererBuilt() throws Exception {
    String ca = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    RenderOptions injected =
        RenderOptions.injected("https://toolgate-state.toolgate.svc:8443", ca, 250);
    RenderOptions options =
        new RenderOptions(
            4,
            "ops-assistant",
            injected.sharedStateMode(),
            null,
            List.of(),
            approvalKey().toString(),
            null,
            injected.adminHost(),
            null,
            null,
            null,
            null,
            injected.warmupCalls(),
            injected.stateApi());

    SidecarConfig bound = readBySidecar(options);

    assertThat(bound).isEqualTo(SidecarConfigRenderer.config(demoPolicy(), options));
    assertThat(bound.sharedState().mode()).isEqualTo(SharedStateOptions.Mode.API);
    assertThat(bound.sharedState().api().ca()).isEqualTo(ca);
    assertThat(bound.sharedState().api().tokenFile())
        .isEqualTo("/var/run/secrets/toolgate/state/token");
  }

  @Test
  void aLocalRunsConfigurationBindsToTheRecordTheRendererBuilt() throws Exception {
    RenderOptions options =
        new RenderOptions(
            1,
            "demo",
            SharedStateOptions.Mode.LOCAL,
            null,
            List.of(),
            approvalKey().toString(),
            null,
            null,
            null,
            Map.of("deployment-api", "http://127.0.0.1:18080/mcp"),
            16000,
            16020,
            null);

    SidecarConfig read = readBySidecar(options);

    assertThat(read).isEqualTo(SidecarConfigRenderer.config(demoPolicy(), options));
    assertThat(read.policy().upstreams().get(0).url()).isEqualTo("http://127.0.0.1:18080/mcp");
    assertThat(read.sharedState().configKey()).isNull();
  }

  @Test
  void renderingWithNoOptionsGivesAFileTheSidecarAccepts() throws Exception {
    ToolPolicy readsOnly =
        SidecarConfigRenderer.parse(
            """
        apiVersion: toolgate.dev/v1alpha1
        kind: ToolPolicy
        metadata: {name: reads, namespace: agents}
        spec:
          upstreams: [{name: api, url: "http://api.agents.svc:8080/mcp"}]
          tools: [{name: get_job, upstream: api, effect: read_only}]
        """);
    RenderOptions none = new RenderOptions(1, null, null, null, null, null, null);

    SidecarConfig read = bind(SidecarConfigRenderer.render(readsOnly, none));

    assertThat(read).isEqualTo(SidecarConfigRenderer.config(readsOnly, none));
    assertThat(read.sharedState().mode()).isEqualTo(SharedStateOptions.Mode.EMBEDDED);
    assertThat(read.admin().host()).isEqualTo("127.0.0.1");
  }

  @Test
  void aPolicyNeedingApprovalsIsRefusedUntilItsKeyIsThere() {
    RenderOptions none = new RenderOptions(1, null, null, null, null, null, null);

    assertThatThrownBy(() -> bind(SidecarConfigRenderer.render(demoPolicy(), none)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "approvals.publicKeysFile: cannot read " + RenderOptions.DEFAULT_APPROVAL_KEYS_FILE);
  }

  private SidecarConfig readBySidecar(RenderOptions options) throws Exception {
    return bind(SidecarConfigRenderer.render(demoPolicy(), options));
  }

  private SidecarConfig bind(String rendered) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("sidecar.yaml"), SIGNER.sign(rendered, new Publication(1, false)));
    return loader.load(file).config();
  }

  private static ToolPolicy demoPolicy() throws Exception {
    return SidecarConfigRenderer.parse(Files.readString(TOOL_POLICY));
  }

  private Path approvalKey() throws Exception {
    return Files.writeString(
        dir.resolve("approval-keys.json"), SigningKey.generate("approver").publicKeys().toJson());
  }
}
