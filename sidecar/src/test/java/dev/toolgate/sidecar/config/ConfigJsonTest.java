package dev.toolgate.sidecar.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.config.SidecarConfig;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigJsonTest {

  private final ConfigLoader loader =
      new ConfigLoader(Clock.systemUTC(), ConfigTrust.unsignedFileAllowed(null));

  @TempDir Path dir;

  @Test
  void writesTheFilesNamesSoThatItsOutputReadsBackAsTheSameConfiguration() throws Exception {
    Path copy = dir.resolve("sidecar.yaml");
    Files.copy(Path.of("../e2e/demo/sidecar.yaml"), copy);
    SidecarFixture.writeApprovalKey(dir);
    SidecarConfig config = loader.load(copy).config();

    JsonObject json = ConfigJson.of(config);
    JsonObject file = json.copy();
    file.remove("policy");
    file.mergeIn(json.getJsonObject("policy"));

    // JSON is YAML: the rendering, with the policy's fields back at the top, is a configuration
    // file.
    SidecarConfig reread =
        loader
            .parse(
                ConfigOrigin.FILE, copy.toString(), file.encode().getBytes(StandardCharsets.UTF_8))
            .config();
    assertThat(reread).isEqualTo(config);
  }

  @Test
  void namesEnumConstantsAndRenamedComponentsAsTheFileDoes() throws Exception {
    SidecarConfig config =
        loader
            .parse(
                ConfigOrigin.FILE,
                dir.resolve("c.yaml").toString(),
                """
        upstreams: [{name: api, url: "http://127.0.0.1:8080/mcp"}]
        tools: [{name: t, upstream: api, effect: read_only, retry: {maxAttempts: 2, retryOn: [backend_503]}}]
        quotas: {notify: {webhookUrl: "https://hooks.example/q", secretFile: notify.secret}}
        """
                    .getBytes(StandardCharsets.UTF_8))
            .config();

    JsonObject policy = ConfigJson.of(config).getJsonObject("policy");

    assertThat(policy.getString("mode")).isEqualTo("enforce");
    JsonObject tool = policy.getJsonArray("tools").getJsonObject(0);
    assertThat(tool.getString("effect")).isEqualTo("read_only");
    assertThat(tool.getJsonObject("retry").getJsonArray("retryOn").getList())
        .containsExactly("backend_503");
    assertThat(policy.getJsonObject("quotas").getJsonObject("notify").getString("webhookUrl"))
        .isEqualTo("https://hooks.example/q");
    assertThat(policy.getJsonObject("quotas").containsKey("notify")).isTrue();
    assertThat(policy.getJsonObject("quotas").fieldNames()).doesNotContain("notification");
  }
}
