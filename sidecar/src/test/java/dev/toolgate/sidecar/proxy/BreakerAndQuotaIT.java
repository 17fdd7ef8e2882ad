package dev.toolgate.sidecar.proxy;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.demo.Fault;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 000's breaker and seed 002's quotas, through the real sidecar (one replica, local state).
 */
class BreakerAndQuotaIT {

  static final String GET = "get_deployment_job";
  static final String RESTART = "restart_deployment_job";

  /** Seed 000's breaker, compressed: 4 calls, 0.5, open 1 s, 2 probes one at a time. */
  static final String TOOLS =
      "tools:\n"
          + "  - {name: get_deployment_job, upstream: deployment-api, effect: read_only,\n"
          + "     breaker: {windowSeconds: 30, minimumCalls: 4, failureRatio: 0.5, slowCallRatio: 1.0,"
          + " slowCallMs: 5000, openSeconds: 1, halfOpen: {probeCalls: 2, concurrentProbes: 1},"
          + " fallback: read_only_degraded_response}}\n"
          + "  - {name: restart_deployment_job, upstream: deployment-api, effect: idempotent_write,\n"
          + "     idempotency: {keyComponents: [intent_id, /job_id]},\n"
          + "     breaker: {minimumCalls: 2, failureRatio: 0.5, openSeconds: 30}}\n";

  @TempDir Path dir;
  private SidecarFixture f;
  private String session;

  @AfterEach
  void stop() throws Exception {
    if (f != null) {
      f.close();
    }
  }

  private void start(String extra) throws Exception {
    f = SidecarFixture.start(dir, Map.of(), TOOLS + extra);
    session = f.initialize(API);
  }

  private JsonObject call(String tool, JsonObject args, String intent) {
    try {
      JsonObject meta =
          intent == null ? null : new JsonObject().put("dev.toolgate/intent-id", intent);
      HttpResponse<String> r =
          f.send(
              f.post(
                      API,
                      SidecarFixture.toolCall(
                          1, tool, args.encode(), meta == null ? null : meta.encode()))
                  .header("Mcp-Session-Id", session));
      return new JsonObject(r.body()).getJsonObject("result");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private JsonObject read() {
    return call(GET, new JsonObject().put("job_id", "j1"), null);
  }

  private static String code(JsonObject result) {
    if (!result.getBoolean("isError", false)) {
      return "ok";
    }
    return result.getJsonObject("structuredContent").getJsonObject("toolgate").getString("code");
  }

  private static JsonObject toolgate(JsonObject result) {
    return result.getJsonObject("structuredContent").getJsonObject("toolgate");
  }

  @Test
  void sustainedDependencyFailureOpensTheCircuitProbesOneAtATimeAndRecovers() throws Exception {
    start("");
    assertThat(code(read())).isEqualTo("ok");
    f.backend.faults().inject(GET, Fault.status(503, 3));

    // 1 success + 3 failures: minimumCalls (4) reached with a failure ratio of 0.75 >= 0.5.
    List<String> failing = IntStream.range(0, 3).mapToObj(i -> code(read())).toList();
    long callsWhenOpened = f.backend.ledger().callsReceived(GET);
    JsonObject refused = read();

    assertThat(failing).containsOnly("backend_503");
    assertThat(code(refused)).isEqualTo("circuit_open");
    assertThat(f.backend.ledger().callsReceived(GET))
        .as("refused at once")
        .isEqualTo(callsWhenOpened);
    JsonObject details = toolgate(refused);
    assertThat(details.getBoolean("noWriteActionPerformed")).isTrue();
    assertThat(details.getString("incident")).startsWith("inc-");
    assertThat(details.getJsonObject("fallback").getString("evidence")).isEqualTo("cached");
    assertThat(
            details
                .getJsonObject("fallback")
                .getJsonObject("result")
                .getJsonObject("structuredContent")
                .getString("job_id"))
        .isEqualTo("j1");
    assertThat(refused.getJsonArray("content").getJsonObject(0).getString("text"))
        .contains("CACHED data");
    assertThat(f.events.forTool(GET).get(4).circuitState()).isEqualTo("open");
    assertThat(f.events.forTool(GET).get(1).circuitState()).isEqualTo("closed");

    f.backend.faults().latency(GET, 300);
    java.util.concurrent.atomic.AtomicReference<List<String>> round =
        new java.util.concurrent.atomic.AtomicReference<>();
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              List<CompletableFuture<String>> calls =
                  IntStream.range(0, 3)
                      .mapToObj(i -> CompletableFuture.supplyAsync(() -> code(read())))
                      .toList();
              round.set(calls.stream().map(CompletableFuture::join).toList());
              return round.get().contains("ok");
            });
    assertThat(round.get())
        .as("half-open: one probe at a time")
        .containsExactlyInAnyOrder("ok", "circuit_open", "circuit_open");

    assertThat(code(read())).as("the second probe closes the circuit").isEqualTo("ok");
    assertThat(code(read())).isEqualTo("ok");
    assertThat(f.admin("/metrics"))
        .contains("toolgate_breaker_state{breaker=\"deployment-api/get_deployment_job\"} 0.0")
        .contains(
            "toolgate_breaker_transitions_total{breaker=\"deployment-api/get_deployment_job\",to=\"open\"} 1.0")
        .contains(
            "toolgate_breaker_transitions_total{breaker=\"deployment-api/get_deployment_job\",to=\"closed\"} 1.0");
  }

  @Test
  void aReadWithADegradedFallbackLabelsEveryAnswerFreshCachedOrNone() throws Exception {
    start("");
    JsonObject fresh = read();
    f.backend.faults().inject(GET, Fault.status(503, 3));
    IntStream.range(0, 3).forEach(i -> read());

    JsonObject cached = read();
    JsonObject none = call(GET, new JsonObject().put("job_id", "never-read"), null);

    assertThat(code(fresh)).isEqualTo("ok");
    assertThat(fresh.getJsonObject("_meta").getString("dev.toolgate/evidence")).isEqualTo("fresh");
    assertThat(code(cached)).isEqualTo("circuit_open");
    assertThat(cached.getJsonObject("_meta").getString("dev.toolgate/evidence"))
        .isEqualTo("cached");
    assertThat(toolgate(cached).getJsonObject("fallback").getString("evidence"))
        .isEqualTo("cached");
    assertThat(none.getJsonObject("_meta").getString("dev.toolgate/evidence")).isEqualTo("none");
    assertThat(
            call(RESTART, new JsonObject().put("job_id", "j1").put("environment", "prod"), "x")
                .getJsonObject("_meta", new JsonObject())
                .containsKey("dev.toolgate/evidence"))
        .as("a tool without a degraded fallback is not labelled")
        .isFalse();
  }

  @Test
  void anOpenCircuitGivesAWriteNoFallbackAndSparesOtherTools() throws Exception {
    start("");
    f.backend.faults().inject(RESTART, Fault.status(503, 2));
    JsonObject args = new JsonObject().put("job_id", "j1").put("environment", "prod");
    call(RESTART, args, "w1");
    call(RESTART, args, "w2");

    JsonObject refused = call(RESTART, args, "w3");

    assertThat(code(refused)).isEqualTo("circuit_open");
    assertThat(toolgate(refused).containsKey("fallback")).isFalse();
    assertThat(code(read())).as("the read's own breaker is closed").isEqualTo("ok");
  }

  @Test
  void onlyCallsThatMayProceedAreChargedOpenCircuitRefusalsAndReplaysAreNot() throws Exception {
    f =
        SidecarFixture.start(
            dir,
            Map.of(),
            "tools:\n"
                + "  - {name: restart_deployment_job, upstream: deployment-api,"
                + " effect: idempotent_write, idempotency: {keyComponents: [intent_id, /job_id]},\n"
                + "     breaker: {minimumCalls: 2, failureRatio: 0.5, openSeconds: 1,"
                + " halfOpen: {probeCalls: 1, concurrentProbes: 1}}}\n"
                + "quotas: {perSession: {read: 200, write: 3}}\n");
    session = f.initialize(API);
    JsonObject args = new JsonObject().put("job_id", "j1").put("environment", "prod");
    f.backend.faults().inject(RESTART, Fault.status(503, 2));

    List<String> failing =
        List.of(code(call(RESTART, args, "w1")), code(call(RESTART, args, "w2")));
    List<String> whileOpen =
        IntStream.range(3, 7).mapToObj(i -> code(call(RESTART, args, "w" + i))).toList();
    String third =
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> code(call(RESTART, args, "w7")), c -> !c.equals("circuit_open"));
    List<String> relaunches =
        IntStream.range(0, 3).mapToObj(i -> code(call(RESTART, args, "w7"))).toList();
    JsonObject fourth = call(RESTART, args, "w8");
    String fourthAgain = code(call(RESTART, args, "w8"));

    assertThat(failing).containsOnly("backend_503");
    assertThat(whileOpen).containsOnly("circuit_open");
    assertThat(third)
        .as("the refusals of the open circuit used none of the 3 writes")
        .isEqualTo("ok");
    assertThat(relaunches)
        .as("a replay is not charged, even with the quota spent")
        .containsOnly("ok");
    assertThat(code(fourth)).isEqualTo("quota_exceeded");
    assertThat(toolgate(fourth).getInteger("used")).isEqualTo(3);
    assertThat(fourthAgain)
        .as("the refused write's key was given back: refused again, not in flight")
        .isEqualTo("quota_exceeded");
    assertThat(f.backend.ledger().operationsPerformed(RESTART)).isEqualTo(1);
  }

  @Test
  void rejectsTheSixteenthWriteOfASessionAndAuditsIt() throws Exception {
    start("");
    JsonObject args = new JsonObject().put("job_id", "j1").put("environment", "prod");

    List<String> codes =
        IntStream.range(0, 16)
            .mapToObj(
                i ->
                    CompletableFuture.supplyAsync(
                        () -> code(call(RESTART, args.copy().put("job_id", "j" + i), "i" + i))))
            .toList()
            .stream()
            .map(CompletableFuture::join)
            .toList();

    assertThat(codes.stream().filter("ok"::equals)).hasSize(15);
    assertThat(codes.stream().filter("quota_exceeded"::equals)).hasSize(1);
    assertThat(f.backend.ledger().operationsPerformed(RESTART)).isEqualTo(15);
    JsonObject audit =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(() -> f.events.audits(), a -> !a.isEmpty())
            .get(0);
    assertThat(audit.getString("limit")).isEqualTo("quotas.perSession.write");
    assertThat(audit.getInteger("value")).isEqualTo(15);
    List<JsonObject> lastCalls =
        audit.getJsonArray("lastCalls").stream().map(JsonObject.class::cast).toList();
    assertThat(lastCalls)
        .isNotEmpty()
        .allSatisfy(
            c -> {
              assertThat(c.getString("tool")).isEqualTo(RESTART);
              assertThat(c.getString("ts")).isNotBlank();
            });
    assertThat(lastCalls)
        .filteredOn(c -> "denied:quota_exceeded".equals(c.getString("decision")))
        .singleElement()
        .satisfies(c -> assertThat(c.getString("result")).isEqualTo("policy_denied"));
  }

  @Test
  void theRateLimitStopsATightLoop() throws Exception {
    start("quotas: {ratePerMinute: 20}\n");

    List<JsonObject> answers = IntStream.range(0, 50).mapToObj(i -> read()).toList();
    List<String> codes = answers.stream().map(BreakerAndQuotaIT::code).toList();

    assertThat(codes.stream().filter("ok"::equals)).hasSize(20);
    assertThat(codes.get(20)).isEqualTo("rate_limited");
    assertThat(f.backend.ledger().callsReceived(GET)).isEqualTo(20);
    assertThat(answers.get(20).getJsonArray("content").getJsonObject(0).getString("text"))
        .as("the refusal names the rate's own lever, not a quota raise that would not lift it")
        .contains("quotas.ratePerMinute")
        .doesNotContain("--reads N");
  }

  @Test
  void idleExpiryResetsASession() throws Exception {
    start("quotas: {perSession: {read: 2, write: 15}, idleExpirySeconds: 1}\n");
    read();
    read();
    assertThat(code(read())).isEqualTo("quota_exceeded");

    await()
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> code(read()).equals("ok"));

    assertThat(f.backend.ledger().callsReceived(GET)).isEqualTo(3);
  }
}
