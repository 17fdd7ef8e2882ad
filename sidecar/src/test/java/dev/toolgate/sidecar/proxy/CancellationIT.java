package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.demo.Fault;
import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's {@code notifications/cancelled} stops its tool call wherever it is: in backoff before
 * a retry, or in flight upstream. No further attempt, no result, one event.
 */
class CancellationIT {

  private static final String API = "deployment-api";

  @TempDir Path dir;
  private SidecarFixture f;
  private String session;

  @AfterEach
  void stop() throws Exception {
    if (f != null) {
      f.close();
    }
  }

  private void start() throws Exception {
    f = SidecarFixture.start(dir);
    session = f.initialize(API);
  }

  private CompletableFuture<HttpResponse<String>> callAsync(int id, String tool, String args) {
    return f.http.sendAsync(
        f.post(API, SidecarFixture.toolCall(id, tool, args, null))
            .header("Mcp-Session-Id", session)
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> cancel(int requestId) throws Exception {
    return f.send(
        f.post(
                API,
                new JsonObject()
                    .put("jsonrpc", "2.0")
                    .put("method", "notifications/cancelled")
                    .put("params", new JsonObject().put("requestId", requestId).put("reason", "x"))
                    .encode())
            .header("Mcp-Session-Id", session));
  }

  private List<AttemptEvent> eventsOf(String tool) {
    return f.events.all().stream().filter(e -> e.tool().equals(tool)).toList();
  }

  @Test
  void aCallCancelledInItsBackoffMakesNoSecondAttemptAndGetsNoResult() throws Exception {
    start();
    f.backend.faults().inject("get_deployment_job", new Fault(Fault.Kind.STATUS, 503, 2, 1, 0, 0));
    CompletableFuture<HttpResponse<String>> call =
        callAsync(7, "get_deployment_job", "{\"job_id\":\"j1\"}");
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> f.backend.ledger().callsReceived("get_deployment_job") == 1);
    await().atMost(Duration.ofSeconds(5)).until(() -> !eventsOf("get_deployment_job").isEmpty());

    HttpResponse<String> notification = cancel(7);
    HttpResponse<String> answer = call.get();

    assertThat(notification.statusCode()).isEqualTo(202);
    assertThat(answer.statusCode()).isEqualTo(202);
    assertThat(answer.body()).as("no result for the cancelled request").isEmpty();
    await()
        .during(Duration.ofMillis(2_500))
        .atMost(Duration.ofSeconds(4))
        .until(() -> f.backend.ledger().callsReceived("get_deployment_job") == 1);
    List<AttemptEvent> events = eventsOf("get_deployment_job");
    assertThat(events)
        .extracting(AttemptEvent::decision)
        .containsExactly("retried", "cancelled_by_agent");
    assertThat(events.get(1).result()).isEqualTo("cancelled");
  }

  @Test
  void aCallCancelledInFlightIsCancelledUpstreamUnderTheSidecarsIdAndGetsNoResult()
      throws Exception {
    start();
    f.backend.faults().latency("search_logs", 3_000);
    CompletableFuture<HttpResponse<String>> call =
        callAsync(8, "search_logs", "{\"query\":\"disk\"}");
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> f.backend.ledger().callsReceived("search_logs") == 1);

    HttpResponse<String> notification = cancel(8);
    HttpResponse<String> answer = call.get();

    assertThat(notification.statusCode()).isEqualTo(202);
    assertThat(answer.body()).doesNotContain("\"result\"");
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> f.backend.ledger().cancellationsReceived() == 1);
    AttemptEvent event =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(() -> eventsOf("search_logs"), e -> !e.isEmpty())
            .get(0);
    assertThat(event.decision()).isEqualTo("cancelled_by_agent");
    assertThat(event.attempt()).isEqualTo(1);
    assertThat(f.backend.ledger().operationsPerformed("search_logs")).isZero();
  }

  @Test
  void aCancellationForAnotherSessionsCallStopsNothing() throws Exception {
    start();
    f.backend.faults().latency("search_logs", 500);
    CompletableFuture<HttpResponse<String>> call =
        callAsync(9, "search_logs", "{\"query\":\"disk\"}");
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> f.backend.ledger().callsReceived("search_logs") == 1);
    String mine = session;
    session = f.initialize(API);

    cancel(9);
    session = mine;

    assertThat(call.get().body()).contains("\"result\"");
  }
}
