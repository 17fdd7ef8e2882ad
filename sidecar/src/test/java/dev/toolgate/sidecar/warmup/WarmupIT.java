package dev.toolgate.sidecar.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm-up through the real sidecar and seed 000's policy: its calls are answered, and nothing
 * of them reaches the agent's upstream, the trace, the audit or {@code /metrics}.
 */
class WarmupIT {

  @TempDir Path dir;
  private SidecarFixture f;

  @AfterEach
  void close() throws Exception {
    if (f != null) {
      f.close();
    }
  }

  private String warmup() throws Exception {
    return new JsonObject(f.admin("/readyz")).getJsonObject("checks").getString("warmup");
  }

  @Test
  void answersEveryWarmupCallAndReportsItOnReadyz() throws Exception {
    f = SidecarFixture.start(dir, Map.of(), "runtime: {warmupCalls: 400}\n");

    await().atMost(Duration.ofSeconds(30)).until(() -> warmup().startsWith("done"));

    assertThat(warmup()).matches("done: 400 of 400 calls answered in \\d+ ms");
  }

  @Test
  void leavesTheUpstreamTheTraceAndTheMetricsUntouched() throws Exception {
    f = SidecarFixture.start(dir, Map.of(), "runtime: {warmupCalls: 400}\n");
    await().atMost(Duration.ofSeconds(30)).until(() -> warmup().startsWith("done"));

    for (ToolRule rule : f.sidecar.activeConfig().config().policy().tools()) {
      assertThat(f.backend.ledger().callsReceived(rule.name())).as(rule.name()).isZero();
    }
    assertThat(f.events.all()).isEmpty();
    assertThat(f.events.audits()).isEmpty();
    assertThat(f.admin("/metrics")).doesNotContain("toolgate_attempts_total");
  }

  @Test
  void servesTheAgentAsUsualAfterTheWarmup() throws Exception {
    f = SidecarFixture.start(dir, Map.of(), "runtime: {warmupCalls: 400}\n");
    await().atMost(Duration.ofSeconds(30)).until(() -> warmup().startsWith("done"));
    String session = f.initialize(SidecarFixture.API);

    HttpResponse<String> answer =
        f.send(
            f.post(
                    SidecarFixture.API,
                    SidecarFixture.toolCall(1, "get_deployment_job", "{\"job_id\":\"j1\"}", null))
                .header("Mcp-Session-Id", session));

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(answer.body()).getJsonObject("result").getBoolean("isError"))
        .isFalse();
    assertThat(f.backend.ledger().callsReceived("get_deployment_job")).isEqualTo(1);
    f.events.first("get_deployment_job");
    assertThat(f.events.forTool("get_deployment_job")).hasSize(1);
    await("the attempt counted, just after its answer")
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(f.admin("/metrics"))
                    .contains(
                        "toolgate_attempts_total{result=\"success\",tool=\"get_deployment_job\""));
  }

  @Test
  void stopsAtTheAgentsFirstCall() throws Exception {
    f = SidecarFixture.start(dir, Map.of(), "runtime: {warmupCalls: 100000}\n");

    f.initialize(SidecarFixture.API);

    await().atMost(Duration.ofSeconds(30)).until(() -> !warmup().equals("running"));
    assertThat(warmup()).startsWith("stopped by the agent's first call: ");
    int answered = Integer.parseInt(warmup().replaceAll("^.*: (\\d+) of .*$", "$1"));
    assertThat(answered).isLessThan(100_000);
  }

  @Test
  void reportsTheWarmupOffWhenTurnedOff() throws Exception {
    f = SidecarFixture.start(dir, Map.of(), "runtime: {warmupCalls: 0}\n");

    assertThat(warmup()).isEqualTo("off");
  }
}
