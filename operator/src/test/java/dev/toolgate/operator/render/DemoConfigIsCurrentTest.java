package dev.toolgate.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.config.SharedStateOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The local demo's sidecar configuration is rendered from seed 000's ToolPolicy, not written by
 * hand: one source of truth. Regenerate with {@code ./mvnw -pl operator test
 * -Dtest=DemoConfigIsCurrentTest -Dtoolgate.regenerate=true}.
 */
class DemoConfigIsCurrentTest {

  static final Path TOOL_POLICY = Path.of("../e2e/demo/toolpolicy.yaml");
  static final Path DEMO_CONFIG = Path.of("../e2e/demo/sidecar.yaml");
  static final RenderOptions DEMO =
      new RenderOptions(
          1,
          "demo",
          SharedStateOptions.Mode.EMBEDDED,
          null,
          List.of(),
          "target/approval-keys.json",
          null,
          "127.0.0.1",
          5701,
          Map.of("deployment-api", "http://127.0.0.1:18080/mcp"),
          null,
          null,
          null);

  @Test
  void theDemoConfigurationIsTheRenderedToolPolicy() throws Exception {
    String rendered =
        SidecarConfigRenderer.render(
            SidecarConfigRenderer.parse(Files.readString(TOOL_POLICY)), DEMO);
    if (Boolean.getBoolean("toolgate.regenerate")) {
      Files.writeString(DEMO_CONFIG, rendered);
    }

    assertThat(Files.readString(DEMO_CONFIG))
        .as("e2e/demo/sidecar.yaml is stale: regenerate it")
        .isEqualTo(rendered);
  }
}
