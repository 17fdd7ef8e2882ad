package dev.toolgate.sidecar.proxy;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static dev.toolgate.sidecar.support.SidecarFixture.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sidecar in front of the demo backend, spoken to in raw HTTP: what must pass unchanged. */
class ProxyTransparencyIT {

  @TempDir Path dir;
  private SidecarFixture f;

  @BeforeEach
  void start() throws Exception {
    f = SidecarFixture.start(dir);
  }

  @AfterEach
  void stop() throws Exception {
    f.close();
  }

  @Test
  void initializesListsAndCallsAToolWithAJsonResponseUnderTheAgentsOwnId() throws Exception {
    String session = f.initialize(API);

    HttpResponse<String> list =
        f.send(
            f.post(API, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")
                .header("Mcp-Session-Id", session));
    HttpResponse<String> call =
        f.send(
            f.post(API, toolCall("agent-7", "get_deployment_job", "{\"job_id\":\"j1\"}", null))
                .header("Mcp-Session-Id", session)
                .header("Authorization", "Bearer agent-token")
                .header("Toolgate-Conversation-Id", "conv-1"));

    assertThat(new JsonObject(list.body()).getJsonObject("result").getJsonArray("tools"))
        .hasSize(5);
    assertThat(call.statusCode()).isEqualTo(200);
    assertThat(call.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonObject answer = new JsonObject(call.body());
    assertThat(answer.getValue("id")).isEqualTo("agent-7");
    assertThat(
            answer.getJsonObject("result").getJsonObject("structuredContent").getString("job_id"))
        .isEqualTo("j1");
    AttemptEvent event = f.events.first("get_deployment_job");
    assertThat(event.upstreamRequestId()).startsWith("tg-").isNotEqualTo("agent-7");
    assertThat(event.result()).isEqualTo("success");
    assertThat(event.attempt()).isEqualTo(1);
    assertThat(event.sessionKey()).isEqualTo(session);
    assertThat(event.upstream()).isEqualTo(API);
    assertThat(event.policyRevision()).isEqualTo(1);
    assertThat(f.backend.ledger().lastHeaders("get_deployment_job"))
        .containsEntry("mcp-session-id", session)
        .containsEntry("authorization", "Bearer agent-token")
        .doesNotContainKey("toolgate-conversation-id");
    assertThat(event.conversationId()).isEqualTo("conv-1");
  }

  @Test
  void streamsProgressNotificationsWhileTheCallRuns() throws Exception {
    String session = f.initialize(API);
    f.backend.faults().latency("search_logs", 900);
    List<Long> arrivals = new ArrayList<>();
    List<String> lines = new ArrayList<>();

    HttpResponse<Stream<String>> response =
        f.http.send(
            f.post(
                    API,
                    toolCall(
                        42, "search_logs", "{\"query\":\"oom\"}", "{\"progressToken\":\"p-1\"}"))
                .header("Mcp-Session-Id", session)
                .build(),
            HttpResponse.BodyHandlers.ofLines());
    try (Stream<String> body = response.body()) {
      body.forEach(
          line -> {
            lines.add(line);
            arrivals.add(System.nanoTime());
          });
    }

    assertThat(response.headers().firstValue("Content-Type")).hasValue("text/event-stream");
    assertThat(lines).contains("retry: 500", ": working on search_logs");
    int firstProgress = indexOf(lines, "notifications/progress");
    int answer = indexOf(lines, "\"result\"");
    assertThat(firstProgress).isPositive().isLessThan(answer);
    assertThat(lines.subList(answer - 2, answer))
        .as("the answer event keeps the upstream's event id and type, for the agent's resumption")
        .anyMatch(l -> l.matches("id: .+"))
        .contains("event: message");
    long gapMs = (arrivals.get(answer) - arrivals.get(firstProgress)) / 1_000_000;
    assertThat(gapMs)
        .as("progress was forwarded before the answer, not buffered with it")
        .isGreaterThan(300);
    JsonObject result = new JsonObject(lines.get(answer).substring("data: ".length()));
    assertThat(result.getValue("id")).isEqualTo(42);
    assertThat(lines.get(firstProgress)).contains("\"progressToken\":\"p-1\"");
  }

  @Test
  void resumesAnInterruptedStreamWithLastEventIdAndStillGivesTheAgentItsId() throws Exception {
    String session = f.initialize(API);
    f.backend.faults().latency("search_logs", 1200);
    String lastEventId = null;

    HttpResponse<Stream<String>> first =
        f.http.send(
            f.post(
                    API,
                    toolCall(9, "search_logs", "{\"query\":\"disk\"}", "{\"progressToken\":\"r\"}"))
                .header("Mcp-Session-Id", session)
                .build(),
            HttpResponse.BodyHandlers.ofLines());
    try (Stream<String> body = first.body()) {
      Iterator<String> it = body.iterator();
      String id = null;
      while (it.hasNext()) {
        String line = it.next();
        if (line.startsWith("id: ")) {
          id = line.substring(4);
        }
        if (line.contains("notifications/progress")) {
          lastEventId = id;
          break;
        }
      }
    }
    assertThat(lastEventId).isNotNull();

    HttpResponse<String> resumed =
        f.send(
            HttpRequest.newBuilder(URI.create(f.url(API)))
                .timeout(Duration.ofSeconds(20))
                .header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session)
                .header("Last-Event-ID", lastEventId)
                .GET());

    assertThat(resumed.statusCode()).isEqualTo(200);
    String answerLine =
        resumed.body().lines().filter(l -> l.contains("\"result\"")).findFirst().orElseThrow();
    assertThat(new JsonObject(answerLine.substring(6)).getValue("id")).isEqualTo(9);
    List<String> resumedLines = resumed.body().lines().toList();
    int answerAt = resumedLines.indexOf(answerLine);
    assertThat(resumedLines.subList(answerAt - 2, answerAt)).anyMatch(l -> l.matches("id: .+"));
    assertThat(resumed.body()).doesNotContain("\"tg-");
    assertThat(resumed.body()).doesNotContain(lastEventId + "\n");
  }

  @Test
  void aStreamResumedAfterItsAnswerWasDeliveredReplaysTheAnswerUnderTheAgentsId() throws Exception {
    String session = f.initialize(API);
    f.backend.faults().answerFormat("get_deployment_job", dev.toolgate.demo.AnswerFormat.SSE);
    HttpResponse<String> answer =
        f.send(
            f.post(API, toolCall(12, "get_deployment_job", "{\"job_id\":\"j1\"}", null))
                .header("Mcp-Session-Id", session));
    String primingId =
        answer.body().lines().filter(l -> l.startsWith("id: ")).findFirst().orElseThrow();

    HttpResponse<String> resumed =
        f.send(
            HttpRequest.newBuilder(URI.create(f.url(API)))
                .timeout(Duration.ofSeconds(20))
                .header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session)
                .header("Last-Event-ID", primingId.substring(4))
                .GET());

    String replayed =
        resumed.body().lines().filter(l -> l.contains("\"result\"")).findFirst().orElseThrow();
    assertThat(new JsonObject(replayed.substring(6)).getValue("id")).isEqualTo(12);
    assertThat(resumed.body()).doesNotContain("\"tg-");
  }

  @Test
  void aCallInAnEndedSessionIsRefusedUnderTheAgentsIdNeverTheSidecars() throws Exception {
    String session = f.initialize(API);
    f.send(
        HttpRequest.newBuilder(URI.create(f.url(API))).header("Mcp-Session-Id", session).DELETE());

    HttpResponse<String> refused =
        f.send(
            f.post(API, toolCall("agent-9", "get_deployment_job", "{\"job_id\":\"j1\"}", null))
                .header("Mcp-Session-Id", session));

    assertThat(refused.statusCode()).isEqualTo(404);
    assertThat(new JsonObject(refused.body()).getValue("id")).isEqualTo("agent-9");
    assertThat(refused.body()).doesNotContain("tg-");
  }

  @Test
  void passesASessionlessRequestWithMcpMethodAndMcpNameHeaders() throws Exception {
    HttpResponse<String> call =
        f.send(
            f.post(API, toolCall(1, "get_deployment_job", "{\"job_id\":\"j9\"}", null))
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "tools/call")
                .header("Mcp-Name", "get_deployment_job"));

    assertThat(call.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(call.body()).getJsonObject("result").getBoolean("isError")).isFalse();
    assertThat(f.backend.ledger().lastHeaders("get_deployment_job"))
        .containsEntry("mcp-method", "tools/call")
        .containsEntry("mcp-name", "get_deployment_job")
        .containsEntry("mcp-protocol-version", "2026-07-28");
  }

  @Test
  void refusesRoutingHeadersThatContradictTheBodyBeforeTheBackendSeesThem() throws Exception {
    HttpResponse<String> call =
        f.send(
            f.post(API, toolCall(1, "get_deployment_job", "{\"job_id\":\"j9\"}", null))
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "tools/call")
                .header("Mcp-Name", "restart_deployment_job"));

    assertThat(call.statusCode()).isEqualTo(400);
    assertThat(new JsonObject(call.body()).getJsonObject("error").getString("message"))
        .contains("Mcp-Name header 'restart_deployment_job' does not match");
    assertThat(f.backend.ledger().callsReceived("get_deployment_job")).isZero();
  }

  @Test
  void relaysTheGetStreamNotificationsAcceptedAndDelete() throws Exception {
    String session = f.initialize(API);

    HttpResponse<String> notification =
        f.send(
            f.post(API, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}")
                .header("Mcp-Session-Id", session));
    assertThat(notification.statusCode()).isEqualTo(202);
    assertThat(notification.body()).isEmpty();

    HttpResponse<Stream<String>> stream =
        f.http.send(
            HttpRequest.newBuilder(URI.create(f.url(API)))
                .header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session)
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofLines());
    List<String> opened = new ArrayList<>();
    try (Stream<String> body = stream.body()) {
      Iterator<String> it = body.iterator();
      while (it.hasNext()) {
        String line = it.next();
        opened.add(line);
        if (line.contains("stream opened")) {
          break;
        }
      }
    }
    assertThat(opened).contains("retry: 500");

    HttpResponse<String> deleted =
        f.send(
            HttpRequest.newBuilder(URI.create(f.url(API)))
                .header("Mcp-Session-Id", session)
                .DELETE());
    HttpResponse<String> after =
        f.send(
            f.post(API, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}")
                .header("Mcp-Session-Id", session));

    assertThat(deleted.statusCode()).isEqualTo(200);
    assertThat(after.statusCode())
        .as("the upstream's 404 for a gone session passes through")
        .isEqualTo(404);
  }

  @Test
  void forwardsTheAgentsCancellationUnderTheUpstreamId() throws Exception {
    String session = f.initialize(API);
    f.backend.faults().latency("get_deployment_job", 5_000);
    var pendingCall =
        f.http.sendAsync(
            f.post(API, toolCall(77, "get_deployment_job", "{\"job_id\":\"slow\"}", null))
                .header("Mcp-Session-Id", session)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> f.backend.ledger().callsReceived("get_deployment_job") == 1);

    HttpResponse<String> cancel =
        f.send(
            f.post(
                    API,
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                        + "\"params\":{\"requestId\":77,\"reason\":\"user\"}}")
                .header("Mcp-Session-Id", session));

    assertThat(cancel.statusCode()).isEqualTo(202);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> f.backend.ledger().cancellationsReceived() == 1);
    pendingCall.cancel(true);
  }

  private static int indexOf(List<String> lines, String needle) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(needle)) {
        return i;
      }
    }
    return -1;
  }
}
