package dev.toolgate.sidecar.state;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two sidecar replicas of one agent, clients of one real Hazelcast member: an agent cannot escape a
 * quota or duplicate a write by landing on the other replica.
 */
class SharedStateIT {

  static final String RESTART = "restart_deployment_job";
  static final String TOOLS =
      "tools:\n  - {name: restart_deployment_job, upstream: deployment-api, effect: idempotent_write,"
          + " idempotency: {keyComponents: [intent_id, /job_id]}}\n"
          + "  - {name: get_deployment_job, upstream: deployment-api, effect: read_only,\n"
          + "     breaker: {minimumCalls: 4, failureRatio: 0.5, openSeconds: 2,"
          + " halfOpen: {probeCalls: 1, concurrentProbes: 1}}}\n";

  static final String TOKEN = "admin-token-for-tests-0123456789";

  @TempDir Path dir;
  private HazelcastInstance member;
  private SidecarFixture a;
  private SidecarFixture b;
  private String session;
  private String sharedState;

  @BeforeEach
  void start() throws Exception {
    String cluster = "toolgate-it-" + UUID.randomUUID();
    Config config = new Config().setClusterName(cluster);
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.getNetworkConfig().setPort(5801).setPortAutoIncrement(true).setPortCount(100);
    config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
    config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
    config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
    member = Hazelcast.newHazelcastInstance(config);
    int port = member.getCluster().getLocalMember().getAddress().getPort();
    sharedState =
        "sharedState: {mode: client, clusterName: "
            + cluster
            + ", members: [\"127.0.0.1:"
            + port
            + "\"], configKey: ops/deployment-tools}\n";
    String shared =
        TOOLS + sharedState + "admin: {host: 127.0.0.1, port: 0, tokenFile: admin.token}\n";
    Path dirA = Files.createDirectory(dir.resolve("a"));
    Path dirB = Files.createDirectory(dir.resolve("b"));
    Files.writeString(dirA.resolve("admin.token"), TOKEN);
    Files.writeString(dirB.resolve("admin.token"), TOKEN);
    a = SidecarFixture.start(dirA, Map.of(), shared);
    b = SidecarFixture.replica(dirB, a.backend, shared);
    session = a.initialize(API);
  }

  @AfterEach
  void stop() throws Exception {
    if (b != null) {
      b.close();
    }
    if (a != null) {
      a.close();
    }
    if (member != null && member.getLifecycleService().isRunning()) {
      member.shutdown();
    }
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
        return result.getJsonObject("_meta") != null ? "replayed" : "ok";
      }
      return result.getJsonObject("structuredContent").getJsonObject("toolgate").getString("code");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void sixteenConcurrentWritesOfOneSessionAcrossTwoReplicasExecuteExactlyFifteen() {
    List<String> codes =
        IntStream.range(0, 16)
            .mapToObj(
                i ->
                    CompletableFuture.supplyAsync(
                        () -> write(i % 2 == 0 ? a : b, "i" + i, "j" + i)))
            .toList()
            .stream()
            .map(CompletableFuture::join)
            .toList();

    assertThat(codes.stream().filter("ok"::equals)).hasSize(15);
    assertThat(codes.stream().filter("quota_exceeded"::equals)).hasSize(1);
    assertThat(a.backend.ledger().operationsPerformed(RESTART)).isEqualTo(15);
  }

  @Test
  void aWriteRelaunchedOnTheOtherReplicaIsNotDuplicated() {
    assertThat(write(a, "intent-x", "j1")).isEqualTo("ok");

    assertThat(write(b, "intent-x", "j1")).isEqualTo("replayed");
    assertThat(a.backend.ledger().operationsPerformed(RESTART)).isEqualTo(1);
    assertThat(a.backend.ledger().callsReceived(RESTART)).isEqualTo(1);
  }

  @Test
  void aQuotaRaisedThroughOneReplicasAdminApiAppliesOnTheOther() throws Exception {
    for (int i = 0; i < 15; i++) {
      assertThat(write(a, "q" + i, "j" + i)).isEqualTo("ok");
    }
    assertThat(write(b, "q15", "j15")).isEqualTo("quota_exceeded");

    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    Path token = dir.resolve("a/admin.token");
    int code =
        dev.toolgate.sidecar.admin.QuotaCommand.run(
            new String[] {
              "quota",
              "raise",
              "--admin",
              a.adminUrl(""),
              "--token-file",
              token.toString(),
              "--session",
              session,
              "--writes",
              "2"
            },
            new java.io.PrintStream(out),
            new java.io.PrintStream(new java.io.ByteArrayOutputStream()));

    assertThat(code).isZero();
    assertThat(new JsonObject(out.toString()).getInteger("extraWrites")).isEqualTo(2);
    assertThat(write(b, "q16", "j16")).isEqualTo("ok");
    assertThat(write(a, "q17", "j17")).isEqualTo("ok");
    assertThat(write(b, "q18", "j18")).isEqualTo("quota_exceeded");
  }

  @Test
  void withoutTheClusterReadsServeOnLocalStateAndWritesFailClosed() throws Exception {
    member.shutdown();

    String read =
        org.awaitility.Awaitility.await()
            .atMost(java.time.Duration.ofSeconds(20))
            .until(
                () -> call(a, "get_deployment_job", new JsonObject().put("job_id", "j1"), null),
                "ok"::equals);
    String write = write(a, "down-1", "j1");

    assertThat(read).isEqualTo("ok");
    assertThat(write).isEqualTo("policy_denied");
    assertThat(a.backend.ledger().operationsPerformed(RESTART)).isZero();
    assertThat(new JsonObject(a.admin("/readyz")).getJsonObject("checks").getString("sharedState"))
        .startsWith("unreachable");
    assertThat(a.admin("/metrics")).contains("toolgate_shared_state_up 0.0");
  }

  @Test
  void aBreakerOpenedThroughOneReplicaRefusesOnTheOtherWithinASecondAndProbesOnceClusterWide() {
    JsonObject job = new JsonObject().put("job_id", "j1");
    a.backend.faults().inject("get_deployment_job", dev.toolgate.demo.Fault.status(503, 4));
    for (int i = 0; i < 4; i++) {
      assertThat(call(a, "get_deployment_job", job, null)).isEqualTo("backend_503");
    }
    assertThat(call(a, "get_deployment_job", job, null)).isEqualTo("circuit_open");
    long opened = System.nanoTime();

    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(1))
        .pollInterval(java.time.Duration.ofMillis(20))
        .until(() -> call(b, "get_deployment_job", job, null), "circuit_open"::equals);
    assertThat((System.nanoTime() - opened) / 1_000_000).isLessThan(1_000);

    a.backend.faults().latency("get_deployment_job", 400);
    java.util.concurrent.atomic.AtomicReference<List<String>> round =
        new java.util.concurrent.atomic.AtomicReference<>();
    long before = a.backend.ledger().callsReceived("get_deployment_job");
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(10))
        .pollInterval(java.time.Duration.ofMillis(100))
        .until(
            () -> {
              List<CompletableFuture<String>> calls =
                  IntStream.range(0, 4)
                      .mapToObj(
                          i ->
                              CompletableFuture.supplyAsync(
                                  () -> call(i % 2 == 0 ? a : b, "get_deployment_job", job, null)))
                      .toList();
              round.set(calls.stream().map(CompletableFuture::join).toList());
              return round.get().contains("ok");
            });
    assertThat(round.get())
        .as("one probe across both replicas")
        .containsExactlyInAnyOrder("ok", "circuit_open", "circuit_open", "circuit_open");
    assertThat(a.backend.ledger().callsReceived("get_deployment_job") - before).isEqualTo(1);
  }

  @Test
  void failuresSpreadOverBothReplicasOpenTheCircuitThatNeitherWouldOpenAlone() {
    JsonObject job = new JsonObject().put("job_id", "j1");
    a.backend.faults().inject("get_deployment_job", dev.toolgate.demo.Fault.status(503, 4));
    assertThat(call(a, "get_deployment_job", job, null)).isEqualTo("backend_503");
    assertThat(call(a, "get_deployment_job", job, null)).isEqualTo("backend_503");
    assertThat(call(b, "get_deployment_job", job, null)).isEqualTo("backend_503");
    // A has seen 2 calls and B 1: neither reaches minimumCalls (4) alone. Once B knows A's window,
    // its next failure makes 4 calls, 4 failures: it opens.
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(3))
        .until(
            () ->
                b.admin("/metrics")
                    .contains(
                        "toolgate_breaker_peer_calls{breaker=\"deployment-api/get_deployment_job\"} 2.0"));
    assertThat(call(b, "get_deployment_job", job, null)).isEqualTo("backend_503");

    assertThat(call(b, "get_deployment_job", job, null)).isEqualTo("circuit_open");
  }

  @Test
  void aConfigurationPublishedInTheSharedStateReachesBothReplicasWithinSeconds() throws Exception {
    String published =
        SidecarFixture.config(
            a.backend.mcpUrl(),
            Map.of(),
            TOOLS
                + sharedState
                + "admin: {host: 127.0.0.1, port: 0, tokenFile: admin.token}\nkillSwitch: {blockWrites: true}\n",
            9);

    member
        .getMap("toolgate.configs")
        .put(
            "ops/deployment-tools",
            new String(SidecarFixture.signed(published), java.nio.charset.StandardCharsets.UTF_8));

    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(5))
        .until(
            () ->
                new JsonObject(a.admin("/config")).getLong("revision") == 9
                    && new JsonObject(b.admin("/config")).getLong("revision") == 9);
    assertThat(write(b, "after-kill", "j1")).isEqualTo("writes_blocked");
  }

  @Test
  void bothReplicasReportTheSharedStateUp() throws Exception {
    assertThat(new JsonObject(a.admin("/readyz")).getJsonObject("checks").getString("sharedState"))
        .isEqualTo("up");
    assertThat(b.admin("/metrics")).contains("toolgate_shared_state_up 1.0");
  }
}
