package dev.toolgate.sidecar.proxy;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.demo.Fault;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A reloaded retry budget applies to the next calls, not only after a restart. */
class RetryBudgetReloadIT {

  private static final String FAST_POLL = "runtime: {configPollMs: 50}\n";
  private static final String NO_RETRIES = "retryBudget: {ratio: 0.0, minRetriesPerSecond: 0}\n";
  private static final String GET = "get_deployment_job";

  @TempDir Path dir;
  private SidecarFixture f;

  @AfterEach
  void stop() throws Exception {
    if (f != null) {
      f.close();
    }
  }

  private String read(String session, int id) throws Exception {
    f.backend.faults().inject(GET, Fault.status(503, 1));
    JsonObject result =
        new JsonObject(
                f.send(
                        f.post(API, SidecarFixture.toolCall(id, GET, "{\"job_id\":\"j1\"}", null))
                            .header("Mcp-Session-Id", session))
                    .body())
            .getJsonObject("result");
    return Boolean.TRUE.equals(result.getBoolean("isError"))
        ? result.getJsonObject("structuredContent").getJsonObject("toolgate").getString("code")
        : "ok";
  }

  @Test
  void aReloadedRetryBudgetTakesEffectOnTheNextCall() throws Exception {
    f = SidecarFixture.start(dir, Map.of(), FAST_POLL + NO_RETRIES);
    String session = f.initialize(API);

    assertThat(read(session, 1))
        .as("an empty budget: the 503 is not retried")
        .isEqualTo("backend_503");

    f.writeConfig(SidecarFixture.config(f.backend.mcpUrl(), Map.of(), FAST_POLL, 2));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> new JsonObject(f.admin("/config")).getLong("revision") == 2);

    assertThat(read(session, 2)).as("the default budget: retried, then answered").isEqualTo("ok");
  }
}
