package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.demo.DemoBackend;
import dev.toolgate.demo.DemoBackendOptions;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upstream with {@code auth} receives the sidecar's credential, read from a file the agent
 * cannot read, and never the agent's own {@code Authorization}; a rotated file takes effect without
 * a restart.
 */
class UpstreamAuthIT {

  private static final String API = "deployment-api";

  @TempDir Path dir;
  private final Vertx vertx = Vertx.vertx();
  private DemoBackend backend;
  private SidecarFixture f;

  @AfterEach
  void stop() throws Exception {
    if (f != null) {
      f.close();
    }
    if (backend != null) {
      backend.close().await(10, TimeUnit.SECONDS);
    }
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private void start(String auth) throws Exception {
    backend = DemoBackend.start(vertx, DemoBackendOptions.ephemeral()).await(10, TimeUnit.SECONDS);
    f =
        SidecarFixture.replica(
            dir,
            backend,
            "upstreams:\n- {name: "
                + API
                + ", url: \""
                + backend.mcpUrl()
                + "\", auth: "
                + auth
                + "}\n");
  }

  private String session;

  private void callAsTheAgent() throws Exception {
    if (session == null) {
      session = f.initialize(API);
    }
    f.send(
        f.post(API, SidecarFixture.toolCall(1, "get_deployment_job", "{\"job_id\":\"j1\"}", null))
            .header("Mcp-Session-Id", session)
            .header("Authorization", "Bearer the-agents-own-token"));
  }

  @Test
  void theUpstreamGetsTheSidecarsBearerTokenNeverTheAgentsAndARotationTakesEffect()
      throws Exception {
    Path token = Files.writeString(dir.resolve("upstream.token"), "sidecar-token-1\n");
    start("{bearerTokenFile: \"upstream.token\"}");

    callAsTheAgent();

    assertThat(backend.ledger().lastHeaders("get_deployment_job"))
        .containsEntry("authorization", "Bearer sidecar-token-1");
    Files.writeString(token, "sidecar-token-2\n");
    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              callAsTheAgent();
              assertThat(backend.ledger().lastHeaders("get_deployment_job"))
                  .containsEntry("authorization", "Bearer sidecar-token-2");
            });
  }

  @Test
  void aHeaderCredentialReplacesTheAgentsAndItsAuthorizationIsDropped() throws Exception {
    Files.writeString(dir.resolve("api.key"), "key-123");
    start("{headerName: X-Api-Key, headerValueFile: \"api.key\"}");

    callAsTheAgent();

    assertThat(backend.ledger().lastHeaders("get_deployment_job"))
        .containsEntry("x-api-key", "key-123")
        .doesNotContainKey("authorization");
  }

  @Test
  void aCredentialNotMountedYetSendsNoneAndStillDropsTheAgents() throws Exception {
    start("{bearerTokenFile: \"missing.token\"}");

    callAsTheAgent();

    assertThat(backend.ledger().lastHeaders("get_deployment_job"))
        .doesNotContainKey("authorization");
  }
}
