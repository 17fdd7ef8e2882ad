package dev.toolgate.sidecar.proxy;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.demo.Fault;
import dev.toolgate.policy.approval.ApprovalClaims;
import dev.toolgate.policy.idempotency.IdempotencyKeys;
import dev.toolgate.sidecar.approval.ApprovalTokens;
import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.support.SidecarFixture;
import dev.toolgate.trust.SigningKey;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 000's fault cases and the resilience rules, through the real sidecar against the demo
 * backend's fault injection. Budgets are compressed (backend 800 ms, call 3 s) to keep runs short;
 * the expected values are the seed's.
 */
class ResilienceIT {

  static final String FAST_BUDGET =
      "budget: {journeyMs: 6000, agentMs: 5000, reserveForFinalResponseMs: 1000, transportMs: 3000,"
          + " backendMs: 800}\n";
  static final String RESTART = "restart_deployment_job";
  static final String GET = "get_deployment_job";
  static final JsonObject RESTART_ARGS =
      new JsonObject().put("job_id", "j1").put("environment", "prod");

  @TempDir Path dir;
  private SidecarFixture f;
  private String session;

  @AfterEach
  void stop() throws Exception {
    if (f != null) {
      f.close();
    }
  }

  private void start(String extraYaml) throws Exception {
    start(Map.of(), extraYaml);
  }

  private void start(Map<String, String> upstreams, String extraYaml) throws Exception {
    f = SidecarFixture.start(dir, upstreams, FAST_BUDGET + extraYaml);
    session = f.initialize(API);
  }

  private String token(String tool, JsonObject args, long fromNowSeconds, SigningKey key) {
    long now = System.currentTimeMillis() / 1000;
    return ApprovalTokens.mint(
        new ApprovalClaims(
            "ap-" + System.nanoTime(),
            tool,
            IdempotencyKeys.argumentsHash(args.getMap()),
            "alice",
            now - 60,
            now + fromNowSeconds),
        key);
  }

  private String token(JsonObject args) {
    return token(RESTART, args, 600, SidecarFixture.APPROVER);
  }

  private HttpResponse<String> call(
      String upstream, Object id, String tool, JsonObject args, JsonObject meta) throws Exception {
    return f.send(
        f.post(
                upstream,
                SidecarFixture.toolCall(
                    id, tool, args.encode(), meta == null ? null : meta.encode()))
            .header("Mcp-Session-Id", session));
  }

  private HttpResponse<String> restart(String intent, String token) throws Exception {
    return call(
        API,
        "w-" + intent,
        RESTART,
        RESTART_ARGS,
        new JsonObject().put("dev.toolgate/intent-id", intent).put("dev.toolgate/approval", token));
  }

  private static JsonObject result(HttpResponse<String> response) {
    return new JsonObject(response.body()).getJsonObject("result");
  }

  private static JsonObject toolgate(HttpResponse<String> response) {
    JsonObject result = result(response);
    assertThat(result.getBoolean("isError")).as(response.body()).isTrue();
    return result.getJsonObject("structuredContent").getJsonObject("toolgate");
  }

  private List<AttemptEvent> events(String tool, int atLeast) {
    return await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> f.events.forTool(tool), list -> list.size() >= atLeast);
  }

  // ---- seed 000's cases -----------------------------------------------------------------------

  @Test
  void readTransient503TakesTwoAttemptsAndAnswersWithFreshState() throws Exception {
    start("");
    f.backend.faults().inject(GET, Fault.status(503, 1));

    HttpResponse<String> response = call(API, 1, GET, new JsonObject().put("job_id", "j1"), null);

    JsonObject state = result(response).getJsonObject("structuredContent");
    assertThat(result(response).getBoolean("isError")).isFalse();
    assertThat(state.getString("job_id")).isEqualTo("j1");
    assertThat(state.getString("observed_at")).isNotBlank();
    List<AttemptEvent> attempts = events(GET, 2);
    assertThat(attempts).extracting(AttemptEvent::attempt).containsExactly(1, 2);
    assertThat(attempts).extracting(AttemptEvent::result).containsExactly("backend_503", "success");
    assertThat(attempts.get(0).decision()).isEqualTo("retried");
    assertThat(attempts.get(1).retryReason()).isEqualTo("retry 1 after backend_503");
    assertThat(attempts)
        .extracting(AttemptEvent::correlationId)
        .containsOnly(attempts.get(0).correlationId());
    assertThat(attempts.get(0).upstreamRequestId())
        .isNotEqualTo(attempts.get(1).upstreamRequestId());
    assertThat(f.backend.ledger().callsReceived(GET)).isEqualTo(2);
    assertThat(f.backend.ledger().operationsPerformed(GET)).isZero();
  }

  @Test
  void writeResponseLostAfterAcceptIsLookedUpByKeyNotRetried() throws Exception {
    start("");
    f.backend.faults().inject(RESTART, Fault.loseResponse(1));

    String approval = token(RESTART_ARGS);
    HttpResponse<String> response = restart("intent-1", approval);

    JsonObject details = toolgate(response);
    assertThat(details.getString("code")).isEqualTo("ambiguous_write");
    assertThat(details.getString("lookup")).isEqualTo("accepted");
    assertThat(details.getString("operationId")).startsWith("op-");
    assertThat(details.getString("idempotencyKey")).startsWith("tgk_");
    assertThat(details.getString("correlationId")).startsWith("tg-");
    assertThat(f.backend.ledger().callsReceived(RESTART)).as("no automatic retry").isEqualTo(1);
    assertThat(f.backend.ledger().callsReceived("get_operation_by_key"))
        .as("lookup by key")
        .isEqualTo(1);
    assertThat(f.backend.ledger().operationsPerformed(RESTART))
        .as("one operation, no duplicate")
        .isEqualTo(1);
    AttemptEvent attempt = events(RESTART, 1).get(0);
    assertThat(attempt.result()).isEqualTo("timeout");
    assertThat(attempt.timeoutLayer()).isEqualTo("attempt");
    assertThat(attempt.reason()).contains("looked up by key");
    AttemptEvent lookup = events("get_operation_by_key", 1).get(0);
    assertThat(lookup.decision()).isEqualTo("ambiguous_lookup");
    assertThat(lookup.backendOperationId()).isEqualTo(details.getString("operationId"));
    assertThat(List.of(attempt, lookup))
        .as("every event of the call names its approval and its approver")
        .allSatisfy(
            e -> {
              assertThat(e.approvalId()).startsWith("ap-");
              assertThat(e.approver()).isEqualTo("alice");
            });

    HttpResponse<String> relaunch = restart("intent-1", approval);

    assertThat(toolgate(relaunch).getString("code")).isEqualTo("ambiguous_write");
    assertThat(f.backend.ledger().operationsPerformed(RESTART)).isEqualTo(1);
    assertThat(f.backend.ledger().callsReceived(RESTART)).isEqualTo(1);
  }

  @Test
  void budgetExhaustedReportsTheLayerAndTheCorrelationIdWithoutAnExtraRetry() throws Exception {
    start("");
    f.backend.faults().latency(GET, 3_000);

    HttpResponse<String> response = call(API, 1, GET, new JsonObject().put("job_id", "j1"), null);

    JsonObject details = toolgate(response);
    assertThat(details.getString("code")).isEqualTo("timeout");
    assertThat(details.getString("timeoutLayer")).isEqualTo("attempt");
    assertThat(details.getString("correlationId")).startsWith("tg-");
    assertThat(result(response).getJsonArray("content").getJsonObject(0).getString("text"))
        .contains(details.getString("correlationId"));
    List<AttemptEvent> attempts = events(GET, 1);
    assertThat(attempts)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.timeoutLayer()).isEqualTo("attempt");
              assertThat(e.decision()).isEqualTo("final");
            });
    assertThat(f.backend.ledger().callsReceived(GET)).as("no extra retry").isEqualTo(1);
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () ->
                assertThat(f.backend.ledger().cancellationsReceived())
                    .as("the backend saw the cancellation")
                    .isEqualTo(1));
  }

  // ---- writes ---------------------------------------------------------------------------------

  @Test
  void anIdempotentWriteRelaunchedWithTheSameIntentCreatesOneOperation() throws Exception {
    start("");
    String approval = token(RESTART_ARGS);

    HttpResponse<String> first = restart("intent-7", approval);
    HttpResponse<String> relaunch = restart("intent-7", approval);

    String op = result(first).getJsonObject("structuredContent").getString("operation_id");
    assertThat(result(relaunch).getJsonObject("structuredContent").getString("operation_id"))
        .isEqualTo(op);
    assertThat(result(relaunch).getJsonObject("_meta").getBoolean("dev.toolgate/replay")).isTrue();
    assertThat(f.backend.ledger().operationsPerformed(RESTART)).isEqualTo(1);
    assertThat(f.backend.ledger().callsReceived(RESTART)).isEqualTo(1);
    assertThat(events(RESTART, 2))
        .extracting(AttemptEvent::decision)
        .containsExactly("forwarded", "replayed");
    JsonObject meta = f.backend.ledger().lastMeta(RESTART);
    assertThat(meta.getString("dev.toolgate/idempotency-key")).startsWith("tgk_");
    assertThat(meta.containsKey("dev.toolgate/approval"))
        .as("the token is not forwarded")
        .isFalse();
    assertThat(f.backend.ledger().lastHeaders(RESTART)).containsKey("idempotency-key");
  }

  @Test
  void twoConcurrentIdenticalWritesCreateOneOperation() throws Exception {
    start("");
    f.backend.faults().latency(RESTART, 400);
    String approval = token(RESTART_ARGS);

    CompletableFuture<HttpResponse<String>> a =
        CompletableFuture.supplyAsync(() -> uncheck(() -> restart("intent-c", approval)));
    CompletableFuture<HttpResponse<String>> b =
        CompletableFuture.supplyAsync(() -> uncheck(() -> restart("intent-c", approval)));
    List<JsonObject> results = List.of(result(a.get()), result(b.get()));

    assertThat(results).filteredOn(r -> !r.getBoolean("isError")).hasSize(1);
    assertThat(results)
        .filteredOn(r -> r.getBoolean("isError"))
        .singleElement()
        .satisfies(
            r ->
                assertThat(
                        r.getJsonObject("structuredContent")
                            .getJsonObject("toolgate")
                            .getString("code"))
                    .isEqualTo("duplicate_in_flight"));
    assertThat(f.backend.ledger().operationsPerformed(RESTART)).isEqualTo(1);
  }

  @Test
  void aNonIdempotentWriteIsNeverRetriedNeitherAfterATimeoutNorA503() throws Exception {
    start(rawTools());
    f.backend.faults().inject(RESTART, Fault.hang(1));

    HttpResponse<String> timedOut = call(API, 1, RESTART, RESTART_ARGS, null);

    JsonObject details = toolgate(timedOut);
    assertThat(details.getString("code")).isEqualTo("ambiguous_write");
    assertThat(details.getString("lookup")).isEqualTo("not_configured");
    assertThat(f.backend.ledger().callsReceived(RESTART)).isEqualTo(1);

    f.backend.faults().inject(RESTART, Fault.status(503, 1));
    HttpResponse<String> refused = call(API, 2, RESTART, RESTART_ARGS, null);

    assertThat(toolgate(refused).getString("code")).isEqualTo("backend_503");
    assertThat(f.backend.ledger().callsReceived(RESTART)).isEqualTo(2);
    assertThat(events(RESTART, 2).get(1).reason())
        .isEqualTo("a non_idempotent_write is never retried automatically");
  }

  @Test
  void a429WhoseRetryAfterExceedsTheBudgetLeftIsNotRetried() throws Exception {
    start("");
    f.backend.faults().inject(GET, Fault.status(429, 1).withRetryAfterSeconds(30));

    HttpResponse<String> response = call(API, 1, GET, new JsonObject().put("job_id", "j1"), null);

    assertThat(toolgate(response).getString("code")).isEqualTo("backend_429");
    assertThat(f.backend.ledger().callsReceived(GET)).isEqualTo(1);
    assertThat(events(GET, 1).get(0).reason())
        .startsWith("Retry-After (30000 ms) exceeds the budget left");
  }

  // ---- approval -------------------------------------------------------------------------------

  @Test
  void refusesAForgedExpiredMismatchedOrReusedApproval() throws Exception {
    start("");
    String forged =
        token(RESTART, RESTART_ARGS, 600, SigningKey.generate(SidecarFixture.APPROVER.keyId()));
    String unknownKey = token(RESTART, RESTART_ARGS, 600, SigningKey.generate("mallory"));
    String expired = token(RESTART, RESTART_ARGS, -1, SidecarFixture.APPROVER);
    String otherArgs = token(new JsonObject().put("job_id", "j2").put("environment", "prod"));
    String used = token(RESTART_ARGS);
    assertThat(result(restart("first-use", used)).getBoolean("isError")).isFalse();

    assertThat(toolgate(restart("no-token", null)).getString("code"))
        .isEqualTo("approval_required");
    assertThat(refusal(forged)).contains("does not match the token");
    assertThat(refusal(unknownKey)).contains("signed with key id mallory, not one of");
    assertThat(refusal(hs256(RESTART_ARGS))).contains("not EdDSA");
    assertThat(refusal(expired)).contains("expired");
    assertThat(refusal(otherArgs)).contains("other arguments");
    assertThat(refusal(used)).contains("already used");
    assertThat(f.backend.ledger().callsReceived(RESTART))
        .as("only the first use reached the backend")
        .isEqualTo(1);
  }

  /** What the approvals of an earlier version looked like: HS256 over a shared key. */
  private static String hs256(JsonObject args) throws Exception {
    java.util.Base64.Encoder b64 = java.util.Base64.getUrlEncoder().withoutPadding();
    long now = System.currentTimeMillis() / 1000;
    String header = b64.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes());
    String claims =
        b64.encodeToString(
            new JsonObject()
                .put("jti", "ap-hs")
                .put("tool", RESTART)
                .put("args", IdempotencyKeys.argumentsHash(args.getMap()))
                .put("sub", "mallory")
                .put("iat", now)
                .put("exp", now + 600)
                .encode()
                .getBytes());
    javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
    mac.init(new javax.crypto.spec.SecretKeySpec(new byte[32], "HmacSHA256"));
    return header
        + "."
        + claims
        + "."
        + b64.encodeToString(mac.doFinal((header + "." + claims).getBytes()));
  }

  private String refusal(String token) throws Exception {
    HttpResponse<String> response = restart("intent-" + token.hashCode(), token);
    assertThat(toolgate(response).getString("code")).isEqualTo("approval_required");
    return result(response).getJsonArray("content").getJsonObject(0).getString("text");
  }

  // ---- kill switch, shadow, deadline, sharing -------------------------------------------------

  @Test
  void theKillSwitchBlocksWritesAndKeepsReads() throws Exception {
    start("killSwitch: {blockWrites: true}\n");

    assertThat(toolgate(restart("k", token(RESTART_ARGS))).getString("code"))
        .isEqualTo("writes_blocked");
    assertThat(
            result(call(API, 2, GET, new JsonObject().put("job_id", "j1"), null))
                .getBoolean("isError"))
        .isFalse();
    assertThat(f.backend.ledger().callsReceived(RESTART)).isZero();
  }

  @Test
  void shadowModeChangesNoOutcomeButRecordsWhatItWouldHaveDone() throws Exception {
    start("mode: shadow\n");
    f.backend.faults().inject(GET, Fault.status(503, 1));

    HttpResponse<String> read = call(API, 1, GET, new JsonObject().put("job_id", "j1"), null);
    HttpResponse<String> write = call(API, 2, RESTART, RESTART_ARGS, null);

    assertThat(read.statusCode())
        .as("the agent sees the 503 it would see without Toolgate")
        .isEqualTo(503);
    assertThat(f.backend.ledger().callsReceived(GET)).isEqualTo(1);
    assertThat(result(write).getBoolean("isError"))
        .as("no approval asked in shadow mode")
        .isFalse();
    assertThat(f.backend.ledger().operationsPerformed(RESTART)).isEqualTo(1);
    assertThat(events(GET, 1).get(0))
        .satisfies(
            e -> {
              assertThat(e.mode()).isEqualTo("shadow");
              assertThat(e.decision()).isEqualTo("shadow");
              assertThat(e.wouldHave()).isEqualTo("retry");
            });
    assertThat(events(RESTART, 1).get(0).wouldHave()).isEqualTo("deny:approval_required");
    assertThat(f.admin("/metrics"))
        .contains(
            "toolgate_shadow_decisions_total{tool=\"get_deployment_job\",upstream=\"deployment-api\",would=\"retry\"} 1.0");
  }

  @Test
  void propagatesTheDeadlineAndHonoursTheAgentsOwn() throws Exception {
    start("");
    f.backend.faults().latency(GET, 1_000);

    HttpResponse<String> response =
        call(
            API,
            1,
            GET,
            new JsonObject().put("job_id", "j1"),
            new JsonObject().put("dev.toolgate/deadline-ms", 1_500));

    assertThat(toolgate(response).getString("timeoutLayer")).isEqualTo("agent_deadline");
    assertThat(f.backend.ledger().lastMeta(GET).getLong("dev.toolgate/deadline-ms"))
        .isBetween(300L, 500L);
    assertThat(f.backend.ledger().lastHeaders(GET)).containsKey("toolgate-deadline-ms");
  }

  @Test
  void identicalConcurrentExpensiveReadsShareOneBackendCall() throws Exception {
    start(
        "tools:\n  - {name: search_logs, upstream: deployment-api, effect: expensive_read,"
            + " shareConcurrentCalls: true}\n");
    f.backend.faults().latency("search_logs", 400);
    JsonObject args = new JsonObject().put("query", "oom");

    List<CompletableFuture<HttpResponse<String>>> calls =
        List.of(1, 2, 3).stream()
            .map(
                i ->
                    CompletableFuture.supplyAsync(
                        () -> uncheck(() -> call(API, i, "search_logs", args, null))))
            .toList();
    List<JsonObject> answers = calls.stream().map(c -> new JsonObject(c.join().body())).toList();

    assertThat(answers).extracting(a -> a.getValue("id")).containsExactlyInAnyOrder(1, 2, 3);
    assertThat(answers)
        .extracting(a -> a.getJsonObject("result").getJsonObject("structuredContent"))
        .containsOnly(answers.get(0).getJsonObject("result").getJsonObject("structuredContent"));
    assertThat(f.backend.ledger().operationsPerformed("search_logs")).isEqualTo(1);
    assertThat(events("search_logs", 3))
        .extracting(AttemptEvent::decision)
        .containsExactlyInAnyOrder("forwarded", "shared", "shared");
  }

  @Test
  void recordsTheLateAnswerOfAnAbandonedWriteAndNeverWritesAgain() throws Exception {
    start("");
    f.backend.faults().inject(RESTART, Fault.lateAnswer(1_200, 1));
    String approval = token(RESTART_ARGS);

    HttpResponse<String> response = restart("intent-late", approval);

    assertThat(toolgate(response).getString("code")).isEqualTo("ambiguous_write");
    AttemptEvent late =
        await()
            .atMost(Duration.ofSeconds(10))
            .until(
                () ->
                    f.events.forTool(RESTART).stream()
                        .filter(e -> e.decision().equals("late_result"))
                        .findFirst(),
                java.util.Optional::isPresent)
            .get();
    assertThat(late.result()).isEqualTo("success");
    assertThat(late.backendOperationId()).startsWith("op-");
    assertThat(f.backend.ledger().callsReceived(RESTART)).isEqualTo(1);
    assertThat(f.backend.ledger().operationsPerformed(RESTART)).isEqualTo(1);
  }

  @Test
  void recognisesARelaunchWithoutAnIntentIdAsTheSameIntent() throws Exception {
    start("");
    JsonObject meta = new JsonObject().put("dev.toolgate/approval", token(RESTART_ARGS));

    HttpResponse<String> first = call(API, 1, RESTART, RESTART_ARGS, meta);
    HttpResponse<String> relaunch = call(API, 2, RESTART, RESTART_ARGS, meta);

    assertThat(result(first).getBoolean("isError")).isFalse();
    assertThat(result(relaunch).getJsonObject("_meta").getBoolean("dev.toolgate/replay")).isTrue();
    List<AttemptEvent> events = events(RESTART, 2);
    assertThat(events.get(0).intentId()).startsWith("tgi_").isEqualTo(events.get(1).intentId());
    assertThat(f.backend.ledger().operationsPerformed(RESTART)).isEqualTo(1);
  }

  @Test
  void cancelsASessionlessAttemptByClosingItsStream() throws Exception {
    start("");
    f.backend.faults().latency(GET, 3_000);

    HttpResponse<String> response =
        f.send(
            f.post(API, SidecarFixture.toolCall(1, GET, "{\"job_id\":\"j\"}", null))
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "tools/call")
                .header("Mcp-Name", GET));

    assertThat(toolgate(response).getString("timeoutLayer")).isEqualTo("attempt");
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(() -> assertThat(f.backend.ledger().cancellationsReceived()).isEqualTo(1));
  }

  @Test
  void saysAWriteWasMostLikelyNotExecutedWhenTheLookupFindsNothing() throws Exception {
    start("");
    f.backend.faults().inject(RESTART, Fault.hang(1));

    HttpResponse<String> response = restart("intent-hang", token(RESTART_ARGS));

    JsonObject details = toolgate(response);
    assertThat(details.getString("code")).isEqualTo("ambiguous_write");
    assertThat(details.getString("lookup")).isEqualTo("not_found");
    assertThat(f.backend.ledger().operationsPerformed(RESTART)).isZero();
  }

  @Test
  void refusesTheSameIdempotencyKeyWithOtherArguments() throws Exception {
    start(
        "tools:\n  - {name: restart_deployment_job, upstream: deployment-api, effect: idempotent_write,"
            + " idempotency: {keyComponents: [intent_id, /job_id]}}\n");
    restart("intent-m", null);
    JsonObject changed = RESTART_ARGS.copy().put("environment", "staging");

    HttpResponse<String> response =
        call(API, 9, RESTART, changed, new JsonObject().put("dev.toolgate/intent-id", "intent-m"));

    assertThat(toolgate(response).getString("code")).isEqualTo("policy_denied");
    assertThat(result(response).getJsonArray("content").getJsonObject(0).getString("text"))
        .contains("used with other arguments");
    assertThat(f.backend.ledger().callsReceived(RESTART)).isEqualTo(1);
  }

  @Test
  void shadowsOneToolWhileEnforcingTheOthers() throws Exception {
    start(
        "tools:\n  - {name: get_deployment_job, upstream: deployment-api, effect: read_only, mode: shadow}\n"
            + "  - {name: restart_deployment_job, upstream: deployment-api, effect: idempotent_write,"
            + " approval: human_required, idempotency: {keyComponents: [intent_id, /job_id]}}\n");

    call(API, 1, GET, new JsonObject().put("job_id", "j1"), null);
    HttpResponse<String> write = restart("i", null);

    assertThat(events(GET, 1).get(0).mode()).isEqualTo("shadow");
    assertThat(toolgate(write).getString("code")).isEqualTo("approval_required");
    assertThat(events(RESTART, 1).get(0).mode()).isEqualTo("enforce");
  }

  private static String rawTools() {
    return "tools:\n  - {name: restart_deployment_job, upstream: deployment-api,"
        + " effect: non_idempotent_write}\n";
  }

  private interface Call<T> {
    T run() throws Exception;
  }

  private static <T> T uncheck(Call<T> call) {
    try {
      return call.run();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
