package dev.toolgate.sidecar.proxy;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.demo.AnswerFormat;
import dev.toolgate.demo.Fault;
import dev.toolgate.policy.approval.ApprovalClaims;
import dev.toolgate.policy.idempotency.IdempotencyKeys;
import dev.toolgate.sidecar.approval.ApprovalTokens;
import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream answers and agent requests are held whole only up to their limits: an answer over
 * runtime.maxAnswerBytes (one JSON body, one server-sent event) becomes upstream_answer_too_large
 * with its exchange reset, never an out-of-memory; all bodies together stay within
 * runtime.maxHeldBytes, requests past it refused with 503 and answers read on as room comes back.
 */
class AnswerLimitsIT {

  private static final String GET = "get_deployment_job";
  private static final String RESTART = "restart_deployment_job";
  private static final int MAX_ANSWER = 64 * 1024;

  @TempDir Path dir;
  private SidecarFixture f;
  private String session;

  @AfterEach
  void stop() throws Exception {
    if (f != null) {
      f.close();
    }
  }

  private void start(String runtime) throws Exception {
    f =
        SidecarFixture.start(
            dir,
            Map.of(),
            "runtime: {" + runtime + "}\n" + "budget: {transportMs: 10000, backendMs: 8000}\n");
    session = f.initialize(API);
  }

  private HttpRequest.Builder call(Object id, String tool, JsonObject args, JsonObject meta) {
    return f.post(
            API,
            SidecarFixture.toolCall(id, tool, args.encode(), meta == null ? null : meta.encode()))
        .header("Mcp-Session-Id", session);
  }

  private static JsonObject toolgate(String body) {
    JsonObject result = new JsonObject(body).getJsonObject("result");
    assertThat(result.getBoolean("isError")).as(body).isTrue();
    return result.getJsonObject("structuredContent").getJsonObject("toolgate");
  }

  private void nextCallStillWorks() throws Exception {
    HttpResponse<String> ok = f.send(call(99, GET, new JsonObject().put("job_id", "j1"), null));
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(ok.body()).getJsonObject("result").getBoolean("isError")).isFalse();
  }

  private double heldBytes() throws Exception {
    return f.admin("/metrics")
        .lines()
        .filter(l -> l.startsWith("toolgate_held_bytes "))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.indexOf(' ') + 1)))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aJsonAnswerOverTheLimitIsDroppedAsUpstreamAnswerTooLargeAndNotRetried() throws Exception {
    start("maxAnswerBytes: " + MAX_ANSWER);
    f.backend.faults().inject(GET, Fault.hugeAnswer(100L * 1024 * 1024, 1));

    HttpResponse<String> response =
        f.send(call(1, GET, new JsonObject().put("job_id", "j1"), null));

    JsonObject details = toolgate(response.body());
    assertThat(details.getString("code")).isEqualTo("upstream_answer_too_large");
    assertThat(new JsonObject(response.body()).getJsonObject("result").encode())
        .contains("runtime.maxAnswerBytes");
    assertThat(f.backend.ledger().callsReceived(GET)).as("not retried").isEqualTo(1);
    AttemptEvent event = f.events.first(GET);
    assertThat(event.result()).isEqualTo("upstream_answer_too_large");
    assertThat(event.decision()).isEqualTo("final");
    await().atMost(Duration.ofSeconds(10)).until(() -> heldBytes() == 0);
    nextCallStillWorks();
  }

  @Test
  void anEventThatNeverEndsClosesTheUpstreamStreamAndEndsTheAgentsWithTheError() throws Exception {
    start("maxAnswerBytes: " + MAX_ANSWER);
    f.backend.faults().answerFormat(GET, AnswerFormat.SSE);
    f.backend.faults().inject(GET, Fault.hugeAnswer(0, 1));

    HttpResponse<String> response =
        f.send(call(2, GET, new JsonObject().put("job_id", "j1"), null));

    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
    List<String> data = response.body().lines().filter(l -> l.startsWith("data: {")).toList();
    assertThat(data).isNotEmpty();
    JsonObject last = new JsonObject(data.get(data.size() - 1).substring(6));
    assertThat(last.getValue("id")).isEqualTo(2);
    assertThat(toolgate(last.encode()).getString("code")).isEqualTo("upstream_answer_too_large");
    assertThat(response.body().length())
        .as("nothing of the endless event relayed")
        .isLessThan(MAX_ANSWER);
    await().atMost(Duration.ofSeconds(10)).until(() -> heldBytes() == 0);
    f.backend.faults().clear();
    nextCallStillWorks();
  }

  @Test
  void aWriteWhoseAnswerIsTooLargeIsLookedUpByKeyNeverRepeated() throws Exception {
    start("maxAnswerBytes: " + MAX_ANSWER);
    SidecarFixture.writeApprovalKey(dir);
    f.backend.faults().inject(RESTART, Fault.hugeAnswer(8L * 1024 * 1024, 1));
    JsonObject args = new JsonObject().put("job_id", "j1").put("environment", "prod");
    long now = System.currentTimeMillis() / 1000;
    String approval =
        ApprovalTokens.mint(
            new ApprovalClaims(
                "ap-big",
                RESTART,
                IdempotencyKeys.argumentsHash(args.getMap()),
                "alice",
                now - 60,
                now + 600),
            SidecarFixture.APPROVER);
    JsonObject meta =
        new JsonObject()
            .put("dev.toolgate/intent-id", "intent-big")
            .put("dev.toolgate/approval", approval);

    HttpResponse<String> first = f.send(call("w1", RESTART, args, meta));
    HttpResponse<String> again = f.send(call("w2", RESTART, args, meta));

    JsonObject details = toolgate(first.body());
    assertThat(details.getString("code")).isEqualTo("ambiguous_write");
    assertThat(details.getString("result")).isEqualTo("upstream_answer_too_large");
    assertThat(details.getString("lookup")).isEqualTo("accepted");
    assertThat(toolgate(again.body()).getString("code")).isEqualTo("ambiguous_write");
    assertThat(f.backend.ledger().callsReceived(RESTART)).isEqualTo(1);
    assertThat(f.backend.ledger().operationsPerformed(RESTART)).as("no duplicate").isEqualTo(1);
  }

  @Test
  void requestsPastTheHeldBytesAreRefusedWith503WhateverTheirFramingUntilTheHeldOnesEnd()
      throws Exception {
    start("maxBodyBytes: 32768, maxAnswerBytes: 32768, maxHeldBytes: 131072");
    f.backend.faults().latency(GET, 1_500);
    JsonObject big = new JsonObject().put("job_id", "j1").put("pad", "p".repeat(30_000));

    CompletableFuture<HttpResponse<String>> one =
        f.http.sendAsync(call(1, GET, big, null).build(), HttpResponse.BodyHandlers.ofString());
    CompletableFuture<HttpResponse<String>> two =
        f.http.sendAsync(call(2, GET, big, null).build(), HttpResponse.BodyHandlers.ofString());
    await().atMost(Duration.ofSeconds(10)).until(() -> heldBytes() >= 60_000);

    HttpResponse<String> declared = f.send(call(3, GET, big, null));
    String chunkedBody = SidecarFixture.toolCall(4, GET, big.encode(), null);
    HttpResponse<String> chunked =
        f.send(
            f.post(API, "")
                .header("Mcp-Session-Id", session)
                .POST(
                    HttpRequest.BodyPublishers.ofInputStream(
                        () ->
                            new ByteArrayInputStream(
                                chunkedBody.getBytes(StandardCharsets.UTF_8)))));

    for (HttpResponse<String> refused : List.of(declared, chunked)) {
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
      assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(new JsonObject(refused.body()).getJsonObject("error").getString("message"))
          .contains("runtime.maxHeldBytes");
    }
    assertThat(one.get().statusCode()).isEqualTo(200);
    assertThat(two.get().statusCode()).isEqualTo(200);
    assertThat(f.backend.ledger().callsReceived(GET)).isEqualTo(2);
    await().atMost(Duration.ofSeconds(10)).until(() -> heldBytes() == 0);
    assertThat(f.send(call(5, GET, big, null)).statusCode()).isEqualTo(200);
    assertThat(f.admin("/metrics"))
        .contains("toolgate_requests_rejected_total{reason=\"sidecar_busy\"} 2.0");
  }

  @Test
  void answersThatDoNotFitTogetherAreReadOneAfterTheOtherAndAllArrive() throws Exception {
    start("maxBodyBytes: 65536, maxAnswerBytes: 200000, maxHeldBytes: 400000");
    int calls = 4;
    int size = 180_000;
    f.backend.faults().inject(GET, Fault.hugeAnswer(size, calls));

    List<CompletableFuture<HttpResponse<String>>> answers =
        java.util.stream.IntStream.range(0, calls)
            .mapToObj(
                i ->
                    f.http.sendAsync(
                        call(i, GET, new JsonObject().put("job_id", "j" + i), null).build(),
                        HttpResponse.BodyHandlers.ofString()))
            .toList();

    for (CompletableFuture<HttpResponse<String>> answer : answers) {
      JsonObject result = new JsonObject(answer.get().body()).getJsonObject("result");
      assertThat(result.getBoolean("isError", false)).isFalse();
      assertThat(result.getJsonArray("content").getJsonObject(0).getString("text").length())
          .isGreaterThan(size - 200);
    }
    assertThat(f.backend.ledger().callsReceived(GET)).isEqualTo(calls);
    await().atMost(Duration.ofSeconds(10)).until(() -> heldBytes() == 0);
  }
}
