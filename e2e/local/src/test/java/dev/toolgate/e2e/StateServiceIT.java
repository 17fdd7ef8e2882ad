package dev.toolgate.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.e2e.support.DemoBackend;
import dev.toolgate.e2e.support.FreshDirectory;
import dev.toolgate.e2e.support.LocalProcess;
import dev.toolgate.e2e.support.LoopbackPorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cluster's shared state as real processes on loopback: two state members (one Hazelcast
 * cluster, each with its API) checking tokens with TokenReview against fabric8's mock API server
 * (the one part that cannot run here), the demo backend, and two sidecars in api mode configured by
 * {@code toolgate-operator render}, each calling a different member. Seed 002's quota holds at
 * exactly 15 writes across both replicas, and the agent, holding another namespace's token or none,
 * changes nothing.
 */
class StateServiceIT {

  static final Path ROOT =
      Path.of(System.getProperty("toolgate.root", "../..")).toAbsolutePath().normalize();
  static final String WRITE = "restart_deployment_job";

  static StateCluster state;
  static final List<LocalProcess> processes = new ArrayList<>();
  static final List<Toolgate.Endpoint> sidecars = new ArrayList<>();
  static Path work;
  static int backendPort;

  @BeforeAll
  static void start() throws Exception {
    work = ROOT.resolve("e2e/local/target/state-service");
    FreshDirectory.create(work);
    Path logs = Files.createDirectories(work.resolve("logs"));
    state = StateCluster.start(ROOT, work, logs);
    backendPort = LoopbackPorts.next();
    processes.add(DemoBackend.start("demo-backend", ROOT, logs, backendPort));
    await().atMost(Duration.ofSeconds(60)).until(() -> Http.ok(backend("/ledger")));
    Path policy = work.resolve("toolpolicy.yaml");
    Files.writeString(
        policy,
        Files.readString(ROOT.resolve("e2e/demo/toolpolicy.yaml"))
            // Seed 002 counts writes, not approvals: each write here goes without one.
            .replace("approval: human_required", "approval: none")
            .replace(
                "keyComponents: [intent_id, /job_id, /environment, approval_id]",
                "keyComponents: [intent_id, /job_id, /environment]"));
    Path signingKey = work.resolve("config-signing.jwk");
    Path configKeys = work.resolve("config-keys.json");
    LocalProcess.runJava(
        logs,
        "keygen",
        List.of(
            "-jar",
            operatorJar(),
            "keygen",
            "--private",
            signingKey.toString(),
            "--public",
            configKeys.toString()));
    for (int i = 0; i < 2; i++) {
      int mcp = LoopbackPorts.next();
      int admin = LoopbackPorts.next();
      Path config = work.resolve("sidecar-" + i + ".yaml");
      Files.writeString(
          config,
          LocalProcess.runJava(
              logs,
              "render-" + i,
              List.of(
                  "-jar",
                  operatorJar(),
                  "render",
                  "-f",
                  policy.toString(),
                  "--signing-key",
                  signingKey.toString(),
                  "--agent",
                  "ops/Deployment/ops-assistant",
                  "--shared-state",
                  "api",
                  "--state-url",
                  state.url(i),
                  "--state-ca-file",
                  state.caFile.toString(),
                  "--state-token-file",
                  state.sidecarToken.toString(),
                  "--admin-host",
                  "127.0.0.1",
                  "--upstream",
                  LocalStack.UPSTREAM + "=" + backend("/mcp"),
                  "--listen-port",
                  Integer.toString(mcp),
                  "--admin-port",
                  Integer.toString(admin),
                  "--warmup-calls",
                  "0")));
      LocalProcess sidecar =
          LocalProcess.java(
              "sidecar-" + i,
              logs,
              List.of(
                  "-jar",
                  ROOT.resolve("sidecar/target/toolgate-sidecar.jar").toString(),
                  "--config",
                  config.toString(),
                  "--config-keys",
                  configKeys.toString()));
      processes.add(sidecar);
      await("sidecar " + i + " is ready")
          .atMost(Duration.ofSeconds(60))
          .until(() -> Http.ok("http://127.0.0.1:" + admin + "/readyz") || !sidecar.alive());
      assertThat(sidecar.alive()).as("sidecar %d started: see its log", i).isTrue();
      sidecars.add(new Toolgate.Endpoint("sidecar-" + i, mcp, admin));
    }
  }

  @AfterAll
  static void stop() {
    processes.forEach(LocalProcess::close);
    if (state != null) {
      state.close();
    }
  }

  static String operatorJar() {
    return ROOT.resolve("operator/target/toolgate-operator.jar").toString();
  }

  static String backend(String path) {
    return "http://127.0.0.1:" + backendPort + path;
  }

  static HttpClient trusting() throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (var in = Files.newInputStream(state.caFile)) {
      trust.setCertificateEntry(
          "ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(ssl).build();
  }

  @Test
  void seed002sFifteenWritesHoldAcrossTwoSidecarsOnTwoStateMembersAndTheAgentCannotResetThem()
      throws Exception {
    String session = "seed-002-" + System.nanoTime();
    for (Toolgate.Endpoint sidecar : sidecars) {
      // A first call through each sidecar opens its connection to its member, whose first
      // TokenReview loads the Kubernetes client: not what seed 002 measures.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> write(sidecar, "warm-up-" + sidecar.name(), 100), "ok"::equals);
    }
    List<String> codes =
        IntStream.range(0, 16)
            .mapToObj(
                i -> CompletableFuture.supplyAsync(() -> write(sidecars.get(i % 2), session, i)))
            .toList()
            .stream()
            .map(CompletableFuture::join)
            .toList();

    assertThat(codes).as(codes.toString()).filteredOn("ok"::equals).hasSize(15);
    assertThat(codes).filteredOn("quota_exceeded"::equals).hasSize(1);

    // The agent shares the sidecar's network, not its token: it tries the API directly.
    HttpClient http = trusting();
    String reset = "{\"session\":\"" + session + "\"}";
    List<Integer> refusals = new ArrayList<>();
    for (String token : List.of("", "a-guessed-token", StateCluster.OTHER_TOKEN)) {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(state.url(0) + "/v1/quotas/reset"))
              .POST(HttpRequest.BodyPublishers.ofString(reset));
      if (!token.isEmpty()) {
        request.header("Authorization", "Bearer " + token);
      }
      refusals.add(http.send(request.build(), HttpResponse.BodyHandlers.ofString()).statusCode());
    }
    assertThat(refusals)
        .as("no token and a guessed one are refused; another namespace's resets its own session")
        .containsExactly(401, 401, 200);
    assertThat(write(sidecars.get(1), session, 17))
        .as("the quota is still used up after the agent's attempts")
        .isEqualTo("quota_exceeded");
  }

  /** A write on the sessionless protocol (2026-07-28), the quota session in a header. */
  static String write(Toolgate.Endpoint sidecar, String session, int i) {
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + i
            + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
            + WRITE
            + "\",\"arguments\":{\"job_id\":\"j"
            + i
            + "\",\"environment\":\"prod\"}}}";
    try {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:"
                                  + sidecar.mcpPort()
                                  + "/mcp/"
                                  + LocalStack.UPSTREAM))
                      .timeout(Duration.ofSeconds(20))
                      .header("Content-Type", "application/json")
                      .header("Accept", "application/json, text/event-stream")
                      .header("MCP-Protocol-Version", "2026-07-28")
                      .header("Mcp-Method", "tools/call")
                      .header("Mcp-Name", WRITE)
                      .header("Toolgate-Session-Id", session)
                      .header("Toolgate-Intent-Id", "w" + i)
                      .POST(HttpRequest.BodyPublishers.ofString(body))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      var result =
          new com.fasterxml.jackson.databind.ObjectMapper().readTree(response.body()).get("result");
      if (!result.path("isError").asBoolean(false)) {
        return "ok";
      }
      return result.path("structuredContent").path("toolgate").path("code").asText("tool_error");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
