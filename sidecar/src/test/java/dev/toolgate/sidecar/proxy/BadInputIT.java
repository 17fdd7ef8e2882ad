package dev.toolgate.sidecar.proxy;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static dev.toolgate.sidecar.support.SidecarFixture.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.demo.Fault;
import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each bad input gets a clear error, and the very next call still works. */
class BadInputIT {

  @TempDir Path dir;
  private SidecarFixture f;
  private String session;

  @BeforeEach
  void start() throws Exception {
    f =
        SidecarFixture.start(
            dir, Map.of("dead", SidecarFixture.deadUrl()), "runtime: {maxBodyBytes: 4096}\n");
    session = f.initialize(API);
  }

  @AfterEach
  void stop() throws Exception {
    f.close();
  }

  private void nextCallStillWorks() throws Exception {
    HttpResponse<String> ok =
        f.send(
            f.post(API, toolCall(100, "get_deployment_job", "{\"job_id\":\"j1\"}", null))
                .header("Mcp-Session-Id", session));
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(ok.body()).getJsonObject("result").getBoolean("isError")).isFalse();
  }

  private static JsonObject error(HttpResponse<String> response) {
    return new JsonObject(response.body()).getJsonObject("error");
  }

  private static JsonObject toolgate(HttpResponse<String> response) {
    JsonObject result = new JsonObject(response.body()).getJsonObject("result");
    assertThat(result.getBoolean("isError")).isTrue();
    return result.getJsonObject("structuredContent").getJsonObject("toolgate");
  }

  @Test
  void answersMalformedJsonWithParseError() throws Exception {
    HttpResponse<String> bad =
        f.send(f.post(API, "{\"jsonrpc\":\"2.0\",\"id\":1,").header("Mcp-Session-Id", session));

    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(error(bad).getInteger("code")).isEqualTo(-32700);
    assertThat(f.admin("/metrics"))
        .contains("toolgate_requests_rejected_total{reason=\"malformed_json\"} 1.0");
    nextCallStillWorks();
  }

  @Test
  void refusesABodyOverTheLimitWith413() throws Exception {
    String huge = toolCall(1, "search_logs", "{\"query\":\"" + "x".repeat(5000) + "\"}", null);

    HttpResponse<String> bad = f.send(f.post(API, huge).header("Mcp-Session-Id", session));

    assertThat(bad.statusCode()).isEqualTo(413);
    assertThat(error(bad).getString("message")).contains("4096 bytes (runtime.maxBodyBytes)");
    assertThat(f.backend.ledger().callsReceived("search_logs")).isZero();
    nextCallStillWorks();
  }

  @Test
  void namesTheKnownUpstreamsForAnUnknownOne() throws Exception {
    HttpResponse<String> bad = f.send(f.post("nowhere", toolCall(1, "x", "{}", null)));

    assertThat(bad.statusCode()).isEqualTo(404);
    assertThat(error(bad).getString("message"))
        .isEqualTo("unknown upstream 'nowhere'; known upstreams: [dead, deployment-api]");
    nextCallStillWorks();
  }

  @Test
  void answersAToolCallToAnUnreachableUpstreamWithAToolErrorTheAgentCanActOn() throws Exception {
    HttpResponse<String> call =
        f.send(f.post("dead", toolCall(3, "get_deployment_job", "{\"job_id\":\"j\"}", null)));

    assertThat(call.statusCode()).isEqualTo(200);
    JsonObject details = toolgate(call);
    assertThat(details.getString("code")).isEqualTo("upstream_unavailable");
    assertThat(details.getString("correlationId")).startsWith("tg-");
    assertThat(new JsonObject(call.body()).getValue("id")).isEqualTo(3);
    AttemptEvent event = f.events.first("get_deployment_job");
    assertThat(event.result()).isEqualTo("transport_unavailable");
    assertThat(event.correlationId()).isEqualTo(details.getString("correlationId"));
    nextCallStillWorks();
  }

  @Test
  void answersOtherRequestsToAnUnreachableUpstreamWith502() throws Exception {
    HttpResponse<String> init =
        f.send(
            f.post(
                "dead", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}"));

    assertThat(init.statusCode()).isEqualTo(502);
    assertThat(error(init).getString("message")).startsWith("upstream 'dead' is unreachable");
    nextCallStillWorks();
  }

  @Test
  void endsAStreamTheUpstreamClosedMidwayWithAnExplicitAnswer() throws Exception {
    f.backend.faults().inject("search_logs", Fault.closeMidStream(1));

    HttpResponse<String> call =
        f.send(
            f.post(
                    API,
                    toolCall("s-1", "search_logs", "{\"query\":\"q\"}", "{\"progressToken\":1}"))
                .header("Mcp-Session-Id", session));

    String last =
        call.body().lines().filter(l -> l.startsWith("data: {")).reduce((a, b) -> b).orElseThrow();
    JsonObject answer = new JsonObject(last.substring(6));
    assertThat(answer.getValue("id")).isEqualTo("s-1");
    assertThat(
            answer
                .getJsonObject("result")
                .getJsonObject("structuredContent")
                .getJsonObject("toolgate")
                .getString("code"))
        .isEqualTo("upstream_closed");
    assertThat(call.body()).contains("notifications/progress");
    assertThat(f.events.first("search_logs").result()).isEqualTo("upstream_closed");
    nextCallStillWorks();
  }

  @Test
  void turnsABackend503ThePolicyDoesNotRetryIntoAToolErrorAndRecordsItsClass() throws Exception {
    f.backend.faults().inject("search_logs", Fault.status(503, 1).withRetryAfterSeconds(2));

    HttpResponse<String> call =
        f.send(
            f.post(API, toolCall(4, "search_logs", "{\"query\":\"q\"}", null))
                .header("Mcp-Session-Id", session));

    JsonObject details = toolgate(call);
    assertThat(details.getString("code")).isEqualTo("backend_503");
    assertThat(details.getLong("retryAfterMs")).isEqualTo(2000);
    AttemptEvent event = f.events.first("search_logs");
    assertThat(event.result()).isEqualTo("backend_503");
    assertThat(event.httpStatus()).isEqualTo(503);
    assertThat(event.reason()).isEqualTo("backend_503 is not in retryOn");
    nextCallStillWorks();
  }

  @Test
  void passesTheServersInvalidArgumentsErrorAndClassifiesIt() throws Exception {
    HttpResponse<String> call =
        f.send(
            f.post(API, toolCall(5, "get_deployment_job", "{}", null))
                .header("Mcp-Session-Id", session));

    assertThat(error(call).getInteger("code")).isEqualTo(-32602);
    assertThat(new JsonObject(call.body()).getValue("id")).isEqualTo(5);
    assertThat(f.events.first("get_deployment_job").result()).isEqualTo("invalid_arguments");
    nextCallStillWorks();
  }

  @Test
  void refusesAToolCallWithoutAName() throws Exception {
    HttpResponse<String> call =
        f.send(
            f.post(API, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{}}")
                .header("Mcp-Session-Id", session));

    assertThat(error(call).getInteger("code")).isEqualTo(-32602);
    assertThat(error(call).getString("message")).contains("params.name");
    nextCallStillWorks();
  }

  @Test
  void aToolCallWhoseIdIsNullMissingFractionalOrAnObjectIsRefusedNeverRelayedAndLeavesAnEvent()
      throws Exception {
    List<String> ids = List.of("\"id\":null,", "", "\"id\":1.5,", "\"id\":{\"a\":1},");
    for (String id : ids) {
      String body =
          "{\"jsonrpc\":\"2.0\","
              + id
              + "\"method\":\"tools/call\",\"params\":{\"name\":\"restart_deployment_job\","
              + "\"arguments\":{\"job_id\":\"j1\",\"environment\":\"prod\"}}}";

      HttpResponse<String> call = f.send(f.post(API, body).header("Mcp-Session-Id", session));

      assertThat(call.statusCode()).as(id).isEqualTo(400);
      assertThat(error(call).getInteger("code")).as(id).isEqualTo(-32600);
      assertThat(error(call).getString("message")).contains("a string or an integer");
    }
    assertThat(f.backend.ledger().callsReceived("restart_deployment_job")).isZero();
    assertThat(f.events.forTool("restart_deployment_job"))
        .hasSize(ids.size())
        .allSatisfy(e -> assertThat(e.decision()).isEqualTo("denied:invalid_request"));
    nextCallStillWorks();
  }

  @Test
  void anyMethodButPostCarryingABodyIsRefusedWith405AndNeverRelayed() throws Exception {
    String body = toolCall(8, "restart_deployment_job", "{\"job_id\":\"j1\"}", null);
    for (String method : List.of("PUT", "PATCH", "GET")) {
      HttpResponse<String> call =
          f.send(
              f.post(API, body)
                  .method(method, HttpRequest.BodyPublishers.ofString(body))
                  .header("Mcp-Session-Id", session));

      assertThat(call.statusCode()).as(method).isEqualTo(405);
      assertThat(call.headers().firstValue("Allow")).hasValue("GET, POST, DELETE");
    }
    assertThat(f.backend.ledger().callsReceived("restart_deployment_job")).isZero();
    assertThat(f.events.all())
        .filteredOn(e -> "denied:method_not_allowed".equals(e.decision()))
        .hasSize(3);
    nextCallStillWorks();
  }

  @Test
  void refusesAToolCallInsideABatch() throws Exception {
    HttpResponse<String> call =
        f.send(
            f.post(API, "[" + toolCall(7, "get_deployment_job", "{\"job_id\":\"j\"}", null) + "]")
                .header("Mcp-Session-Id", session));

    assertThat(call.statusCode()).isEqualTo(400);
    assertThat(error(call).getString("message")).contains("batch");
    assertThat(f.backend.ledger().callsReceived("get_deployment_job")).isZero();
    nextCallStillWorks();
  }

  @Test
  void answersPathsOutsideMcpWithTheWayIn() throws Exception {
    HttpResponse<String> bad =
        f.send(
            HttpRequest.newBuilder(URI.create(f.url(API).replace("/mcp/" + API, "/other"))).GET());

    assertThat(bad.statusCode()).isEqualTo(404);
    assertThat(error(bad).getString("message")).contains("/mcp/<upstream>");
    nextCallStillWorks();
  }
}
