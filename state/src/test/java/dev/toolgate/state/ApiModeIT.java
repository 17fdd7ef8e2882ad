package dev.toolgate.state;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.e2e.support.LoopbackPorts;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two sidecars in {@code api} mode, clients of a real state service (member and API), never of
 * Hazelcast: the shared quota holds across them, the operator's publication reaches them, a refused
 * token refuses writes and a rotated one is picked up, and after an outage of a minute a write
 * passes within seconds of the service's return.
 */
class ApiModeIT {

  static final String RESTART = "restart_deployment_job";
  static final String SIDECAR_TOKEN = "t-sidecar-0123456789abcdefghijklmnopqrst";
  static final String PUBLISHER_TOKEN = "t-operator-0123456789abcdefghijklmnopqr";
  static final String TOOLS =
      "tools:\n  - {name: restart_deployment_job, upstream: deployment-api, effect: idempotent_write,"
          + " idempotency: {keyComponents: [intent_id, /job_id]}}\n"
          + "  - {name: get_deployment_job, upstream: deployment-api, effect: read_only,\n"
          + "     breaker: {minimumCalls: 4, failureRatio: 0.5, openSeconds: 2,"
          + " halfOpen: {probeCalls: 1, concurrentProbes: 1}}}\n";

  @TempDir Path dir;
  private final Vertx vertx = Vertx.vertx();
  private StateService service;
  private StateService.Options where;

  /** What the service accepts now: a test swaps it, as a token's expiry would. */
  private final java.util.concurrent.atomic.AtomicReference<Authenticator> accepted =
      new java.util.concurrent.atomic.AtomicReference<>();

  private SidecarFixture a;
  private SidecarFixture b;
  private String session;
  private Path tokenFile;

  @BeforeEach
  void start() throws Exception {
    StateTls.write(dir);
    accepted.set(tokens(SIDECAR_TOKEN));
    int member = LoopbackPorts.next();
    where =
        new StateService.Options(
            "127.0.0.1",
            LoopbackPorts.next(),
            dir.resolve("tls.crt").toString(),
            dir.resolve("tls.key").toString(),
            "127.0.0.1",
            member,
            List.of("127.0.0.1:" + member),
            "api-mode-" + UUID.randomUUID());
    service = startService();
    tokenFile = Files.writeString(dir.resolve("token"), SIDECAR_TOKEN);
    String shared =
        TOOLS
            + "sharedState: {mode: api, configKey: ops/deployment-tools, api: {url: \"https://localhost:"
            + where.apiPort()
            + "\", caFile: \""
            + dir.resolve("ca.crt")
            + "\", tokenFile: \""
            + tokenFile
            + "\"}}\nruntime: {configPollMs: 200}\n";
    a = SidecarFixture.start(Files.createDirectory(dir.resolve("a")), java.util.Map.of(), shared);
    b = SidecarFixture.replica(Files.createDirectory(dir.resolve("b")), a.backend, shared);
    session = a.initialize(API);
  }

  private static StaticTokens tokens(String sidecarToken) {
    return StaticTokens.parse(
        new JsonObject()
            .put(
                "tokens",
                List.of(
                    new JsonObject()
                        .put("token", sidecarToken)
                        .put("namespace", "ops")
                        .put("workload", "ops-assistant"),
                    new JsonObject().put("token", PUBLISHER_TOKEN).put("publisher", true)))
            .encode(),
        "tokens");
  }

  private StateService startService() throws Exception {
    return StateService.start(
            vertx, where, token -> accepted.get().authenticate(token), Clock.systemUTC())
        .await(60, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    if (b != null) {
      b.close();
    }
    if (a != null) {
      a.close();
    }
    if (service != null) {
      service.close(vertx).await(30, TimeUnit.SECONDS);
    }
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private String write(SidecarFixture via, String intent, String job) {
    return call(
        via,
        RESTART,
        new JsonObject().put("job_id", job).put("environment", "prod"),
        new JsonObject().put("dev.toolgate/intent-id", intent));
  }

  private String call(SidecarFixture via, String tool, JsonObject args, JsonObject meta) {
    try {
      HttpResponse<String> r =
          via.send(
              via.post(
                      API,
                      SidecarFixture.toolCall(
                          1, tool, args.encode(), meta == null ? null : meta.encode()))
                  .header("Mcp-Session-Id", session));
      JsonObject result = new JsonObject(r.body()).getJsonObject("result");
      if (!result.getBoolean("isError")) {
        return "ok";
      }
      JsonObject toolgate = result.getJsonObject("structuredContent").getJsonObject("toolgate");
      return toolgate.getString("code")
          + ": "
          + result.getJsonArray("content").getJsonObject(0).getString("text");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String code(String outcome) {
    int colon = outcome.indexOf(':');
    return colon < 0 ? outcome : outcome.substring(0, colon);
  }

  @Test
  void fifteenWritesOfASessionPassAcrossBothSidecarsAndTheSixteenthIsRefused() {
    List<String> codes =
        IntStream.range(0, 16)
            .mapToObj(
                i ->
                    CompletableFuture.supplyAsync(
                        () -> code(write(i % 2 == 0 ? a : b, "i" + i, "j" + i))))
            .toList()
            .stream()
            .map(CompletableFuture::join)
            .toList();

    assertThat(codes).filteredOn("ok"::equals).hasSize(15);
    assertThat(codes).filteredOn("quota_exceeded"::equals).hasSize(1);
    assertThat(a.backend.ledger().operationsPerformed(RESTART)).isEqualTo(15);
  }

  @Test
  void aBreakerOpenedThroughOneSidecarRefusesOnTheOtherWithinASecondAndProbesOnceForBoth() {
    JsonObject job = new JsonObject().put("job_id", "j1");
    a.backend.faults().inject("get_deployment_job", dev.toolgate.demo.Fault.status(503, 4));
    for (int i = 0; i < 4; i++) {
      assertThat(code(call(a, "get_deployment_job", job, null))).isEqualTo("backend_503");
    }
    assertThat(code(call(a, "get_deployment_job", job, null))).isEqualTo("circuit_open");
    long opened = System.nanoTime();

    await()
        .atMost(Duration.ofSeconds(1))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> code(call(b, "get_deployment_job", job, null)), "circuit_open"::equals);
    assertThat((System.nanoTime() - opened) / 1_000_000).isLessThan(1_000);

    a.backend.faults().latency("get_deployment_job", 400);
    java.util.concurrent.atomic.AtomicReference<List<String>> round =
        new java.util.concurrent.atomic.AtomicReference<>();
    long before = a.backend.ledger().callsReceived("get_deployment_job");
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              List<CompletableFuture<String>> calls =
                  IntStream.range(0, 4)
                      .mapToObj(
                          i ->
                              CompletableFuture.supplyAsync(
                                  () ->
                                      code(
                                          call(
                                              i % 2 == 0 ? a : b,
                                              "get_deployment_job",
                                              job,
                                              null))))
                      .toList();
              round.set(calls.stream().map(CompletableFuture::join).toList());
              return round.get().contains("ok");
            });
    assertThat(round.get())
        .as("one probe across both sidecars")
        .containsExactlyInAnyOrder("ok", "circuit_open", "circuit_open", "circuit_open");
    assertThat(a.backend.ledger().callsReceived("get_deployment_job") - before).isEqualTo(1);
  }

  @Test
  void theOperatorsPublicationReachesBothSidecarsThroughTheService() throws Exception {
    String published =
        new String(
            SidecarFixture.signed(
                Files.readString(a.configFile)
                    .replaceAll("(?m)^# toolgate-signature: .*\\n", "")
                    .replace("revision: 1", "revision: 7")
                    .replace("blockWrites: false", "blockWrites: true")),
            StandardCharsets.UTF_8);
    HttpResponse<String> put =
        StateTls.client(dir)
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            "https://localhost:"
                                + where.apiPort()
                                + "/v1/configs/ops/deployment-tools"))
                    .header("Authorization", "Bearer " + PUBLISHER_TOKEN)
                    .PUT(HttpRequest.BodyPublishers.ofString(published))
                    .build(),
                HttpResponse.BodyHandlers.ofString());

    assertThat(put.statusCode()).isEqualTo(204);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                new JsonObject(a.admin("/config")).getLong("revision") == 7
                    && new JsonObject(b.admin("/config")).getLong("revision") == 7);
    assertThat(new JsonObject(b.admin("/config")).getString("source")).isEqualTo("shared state");
    assertThat(code(write(b, "after-kill", "j1"))).isEqualTo("writes_blocked");
  }

  @Test
  void aRefusedTokenRefusesWritesSayingWhyAndARotatedOneIsPickedUpWithoutARestart()
      throws Exception {
    assertThat(write(a, "with-first-token", "j0")).isEqualTo("ok");
    String rotated = "t-rotated-0123456789abcdefghijklmnopqrst";
    accepted.set(tokens(rotated));

    String refused = write(a, "with-expired-token", "j1");
    Files.writeString(tokenFile, rotated);
    String afterRotation = write(a, "with-rotated-token", "j2");

    assertThat(refused)
        .startsWith("policy_denied")
        .contains("refused this sidecar's credential")
        .contains("the token is not one this service knows");
    assertThat(afterRotation).isEqualTo("ok");
    assertThat(a.backend.ledger().callsReceived(RESTART))
        .as("the refused write never reached the backend")
        .isEqualTo(2);
  }

  @Test
  @Timeout(180)
  void afterTheServiceIsDownForAMinuteAWritePassesWithinTenSecondsOfItsReturn() throws Exception {
    assertThat(write(a, "before", "j0")).isEqualTo("ok");
    service.close(vertx).await(30, TimeUnit.SECONDS);
    service = null;

    String duringOutage = write(a, "during", "j1");
    assertThat(duringOutage).contains("unreachable and writes fail closed");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                new JsonObject(a.admin("/readyz"))
                    .getJsonObject("checks")
                    .getString("sharedState")
                    .startsWith("unreachable"));
    // The outage lasts a minute, as a rolling restart of the state members might: the
    // sidecar must not give up on the service meanwhile.
    long outageEnds = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    await()
        .atMost(Duration.ofSeconds(70))
        .pollInterval(Duration.ofSeconds(5))
        .until(
            () ->
                System.nanoTime() >= outageEnds
                    && code(write(b, "still-down", "j2")).equals("policy_denied"));

    service = startService();
    long back = System.nanoTime();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> code(write(a, "after-" + System.nanoTime(), "j3")).equals("ok"));

    assertThat(Duration.ofNanos(System.nanoTime() - back)).isLessThan(Duration.ofSeconds(10));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                new JsonObject(a.admin("/readyz"))
                    .getJsonObject("checks")
                    .getString("sharedState")
                    .equals("up"));
  }
}
