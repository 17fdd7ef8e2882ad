package dev.toolgate.sidecar.admin;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static dev.toolgate.sidecar.support.SidecarFixture.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdminEndpointsIT {

  @TempDir Path dir;
  private SidecarFixture f;

  @BeforeEach
  void start() throws Exception {
    f = SidecarFixture.start(dir, Map.of("secret", "http://user:pw@127.0.0.1:9/mcp?token=abc"), "");
  }

  @AfterEach
  void stop() throws Exception {
    f.close();
  }

  @Test
  void reportsHealthAndReadinessWithItsChecks() throws Exception {
    assertThat(new JsonObject(f.admin("/healthz")).getString("status")).isEqualTo("ok");
    JsonObject ready = new JsonObject(f.admin("/readyz"));
    assertThat(ready.getBoolean("ready")).isTrue();
    assertThat(ready.getJsonObject("checks").getInteger("upstreams")).isEqualTo(2);
    assertThat(ready.getJsonObject("checks").getString("config")).isEqualTo("loaded");
  }

  @Test
  void exportsCallsAttemptsAndTheirDurationPerToolUpstreamAndResult() throws Exception {
    String session = f.initialize(API);
    f.send(
        f.post(API, toolCall(1, "get_deployment_job", "{\"job_id\":\"j\"}", null))
            .header("Mcp-Session-Id", session));
    f.send(f.post(API, toolCall(2, "made_up_tool", "{}", null)).header("Mcp-Session-Id", session));
    f.events.first("made_up_tool");

    String metrics = f.admin("/metrics");

    String labels = "result=\"success\",tool=\"get_deployment_job\",upstream=\"deployment-api\"";
    assertThat(metrics)
        .contains("toolgate_calls_total{" + labels + "} 1.0")
        .contains("toolgate_attempts_total{" + labels + "} 1.0")
        .contains("toolgate_attempt_duration_seconds_bucket{" + labels + ",le=")
        .contains("toolgate_attempt_duration_seconds_count{" + labels + "} 1")
        .contains("tool=\"unlisted\"")
        .doesNotContain("made_up_tool")
        .contains("jvm_memory_used_bytes");
  }

  @Test
  void showsTheActiveConfigurationWithItsRevisionAndHashButNoSecrets() throws Exception {
    JsonObject config = new JsonObject(f.admin("/config"));

    assertThat(config.getLong("revision")).isEqualTo(1);
    assertThat(config.getString("hash")).hasSize(64);
    assertThat(config.encode()).doesNotContain("pw@").doesNotContain("token=abc");
    assertThat(config.getJsonObject("config").getJsonObject("policy").getJsonArray("tools"))
        .hasSize(4);
  }

  @Test
  void refusesQuotaChangesWhenNoAdminTokenIsConfigured() throws Exception {
    var response =
        f.send(
            HttpRequest.newBuilder(URI.create(f.adminUrl("/admin/quotas/reset")))
                .POST(HttpRequest.BodyPublishers.ofString("{\"session\":\"s\"}")));

    assertThat(response.statusCode()).isEqualTo(403);
    assertThat(response.body()).contains("admin.tokenFile");
  }

  @Test
  void refusesStateChangingMethods() throws Exception {
    var response =
        f.send(
            HttpRequest.newBuilder(URI.create(f.adminUrl("/config")))
                .POST(HttpRequest.BodyPublishers.ofString("{}")));

    assertThat(response.statusCode()).isEqualTo(405);
  }
}
