package dev.toolgate.sidecar.config;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static dev.toolgate.sidecar.support.SidecarFixture.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.toolgate.sidecar.Sidecar;
import dev.toolgate.sidecar.SidecarOptions;
import dev.toolgate.sidecar.support.RecordingEvents;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A change of the file applies at run time when valid; an invalid one is refused and the last good
 * stays.
 */
class ConfigReloadIT {

  private static final String FAST_POLL = "runtime: {configPollMs: 50}\n";

  @TempDir Path dir;
  private SidecarFixture f;

  @BeforeEach
  void start() throws Exception {
    f = SidecarFixture.start(dir, Map.of(), FAST_POLL);
  }

  @AfterEach
  void stop() throws Exception {
    f.close();
  }

  private JsonObject activeConfig() throws Exception {
    return new JsonObject(f.admin("/config"));
  }

  @Test
  void appliesAValidChangeWithoutARestart() throws Exception {
    String second = f.backend.mcpUrl();
    f.writeConfig(
        SidecarFixture.config(f.backend.mcpUrl(), Map.of("second", second), FAST_POLL, 2));

    await().atMost(Duration.ofSeconds(10)).until(() -> activeConfig().getLong("revision") == 2);

    assertThat(
            f.send(
                    f.post(
                        "second",
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}"))
                .statusCode())
        .isEqualTo(200);
    assertThat(f.admin("/metrics"))
        .contains("toolgate_config_reloads_total{outcome=\"applied\"} 1.0")
        .contains("toolgate_config_revision 2.0");
  }

  @Test
  void refusesAnInvalidChangeAndKeepsServingTheLastGoodConfiguration() throws Exception {
    String goodHash = activeConfig().getString("hash");
    f.writeConfig(
        SidecarFixture.config(
            f.backend.mcpUrl(), Map.of(), FAST_POLL + "budget: {backendMs: 60000}\n", 2));

    await().atMost(Duration.ofSeconds(10)).until(() -> activeConfig().containsKey("lastRejected"));

    JsonObject config = activeConfig();
    assertThat(config.getString("hash")).isEqualTo(goodHash);
    assertThat(config.getLong("revision")).isEqualTo(1);
    assertThat(config.getJsonObject("lastRejected").getString("message"))
        .contains("budget.backendMs (60000) must be < budget.transportMs (10000)");
    assertThat(f.admin("/metrics"))
        .contains("toolgate_config_reloads_total{outcome=\"invalid\"} 1.0");
    assertThat(config.getJsonObject("lastRejected").getString("outcome")).isEqualTo("invalid");
    String session = f.initialize(API);
    assertThat(
            f.send(
                    f.post(API, toolCall(1, "get_deployment_job", "{\"job_id\":\"j\"}", null))
                        .header("Mcp-Session-Id", session))
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void aRefusedFileKeepsTheCredentialsOfItsUrlsOutOfConfigAndTheLog() throws Exception {
    f.writeConfig(
        SidecarFixture.config(
            f.backend.mcpUrl(),
            Map.of("second", "ftp://admin:hunter2@somewhere.example/mcp?apikey=K9"),
            FAST_POLL,
            2));

    await().atMost(Duration.ofSeconds(10)).until(() -> activeConfig().containsKey("lastRejected"));

    String message = activeConfig().getJsonObject("lastRejected").getString("message");
    assertThat(message)
        .contains("ftp://somewhere.example/mcp?redacted")
        .doesNotContain("hunter2")
        .doesNotContain("K9");
  }

  @Test
  void refusesToStartOnAnInvalidFileNamingTheFieldAndValue() throws Exception {
    Path bad = dir.resolve("bad.yaml");
    Files.write(
        bad, SidecarFixture.signed("upstreams:\n  - {name: 'no spaces', url: 'ftp://x'}\n"));
    Vertx vertx = Vertx.vertx();
    try {
      assertThatThrownBy(
              () ->
                  Sidecar.start(
                          vertx,
                          new SidecarOptions(
                              bad,
                              SidecarFixture.trust(),
                              new RecordingEvents(),
                              Clock.systemUTC()))
                      .await(10, TimeUnit.SECONDS))
          .hasMessageContaining("upstreams[0].name: must match")
          .hasMessageContaining("was 'no spaces'")
          .hasMessageContaining(
              "upstreams[0].url: must be an absolute http(s) URL with a host, was 'ftp://x'");
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
