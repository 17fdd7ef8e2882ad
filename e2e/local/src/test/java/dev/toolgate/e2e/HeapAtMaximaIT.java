package dev.toolgate.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.e2e.support.DemoBackend;
import dev.toolgate.e2e.support.LocalProcess;
import dev.toolgate.e2e.support.LoopbackPorts;
import dev.toolgate.e2e.support.PassThroughConfig;
import dev.toolgate.e2e.support.SidecarImage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heap the documented maxima need fits the image's: the sidecar's jar, run with the image's JVM
 * options (-Xmx64m, exit on out-of-memory) and the default runtime limits, takes rounds of answers
 * just under runtime.maxAnswerBytes, answers a hundred times larger, events that never end and
 * requests just under runtime.maxBodyBytes, all at once, and is still there to answer the next
 * call, every response a result, a clear tool error (too large, or the sidecar too busy to read it)
 * or a 503 to retry.
 */
class HeapAtMaximaIT {

  private static final Path ROOT =
      Path.of(System.getProperty("toolgate.root", "../..")).toAbsolutePath().normalize();
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final int MIB = 1024 * 1024;
  private static final int ROUNDS = 3;
  private static final int LARGEST_ANSWERS = 12;
  private static final int OVERSIZED_ANSWERS = 4;
  private static final int ENDLESS_EVENTS = 4;
  private static final int LARGEST_REQUESTS = 6;

  @TempDir Path work;

  @Test
  void theImagesHeapHoldsEveryBodyTheDefaultLimitsLetInAtOnce() throws Exception {
    Path logs = Path.of("target/heap-at-maxima").toAbsolutePath();
    int backendPort = LoopbackPorts.next();
    int mcpPort = LoopbackPorts.next();
    int adminPort = LoopbackPorts.next();
    String backend = "http://127.0.0.1:" + backendPort;
    Path config = work.resolve("sidecar.yaml");
    Files.writeString(config, PassThroughConfig.yaml(mcpPort, adminPort, backend + "/mcp"));
    try (LocalProcess demo = DemoBackend.start("demo-backend", ROOT, logs, backendPort);
        LocalProcess sidecar =
            LocalProcess.java(
                "sidecar",
                logs,
                SidecarImage.javaArguments(ROOT, config),
                SidecarImage.environment(ROOT))) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  Http.ok(backend + "/ledger")
                      && Http.ok("http://127.0.0.1:" + adminPort + "/readyz"));
      String url = "http://127.0.0.1:" + mcpPort + "/mcp/" + PassThroughConfig.UPSTREAM;
      String session =
          Http.post(
                  url,
                  """
                  {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",
                   "capabilities":{},"clientInfo":{"name":"heap-at-maxima","version":"1"}}}""")
              .headers()
              .firstValue("Mcp-Session-Id")
              .orElseThrow();
      assertThat(Http.post(backend + "/answers/search_logs", "{\"format\":\"sse\"}").statusCode())
          .isLessThan(300);

      ConcurrentHashMap<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
      for (int round = 0; round < ROUNDS; round++) {
        inject(backend, "get_deployment_job", 2L * MIB - 4096, LARGEST_ANSWERS);
        inject(backend, "get_operation_by_key", 100L * MIB, OVERSIZED_ANSWERS);
        inject(backend, "search_logs", 0, ENDLESS_EVENTS);
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (int i = 0; i < LARGEST_ANSWERS; i++) {
          calls.add(call(url, session, "get_deployment_job", "{\"job_id\":\"j\"}", outcomes));
        }
        for (int i = 0; i < OVERSIZED_ANSWERS; i++) {
          calls.add(
              call(url, session, "get_operation_by_key", "{\"idempotency_key\":\"k\"}", outcomes));
        }
        for (int i = 0; i < ENDLESS_EVENTS; i++) {
          calls.add(call(url, session, "search_logs", "{\"query\":\"q\"}", outcomes));
        }
        String pad = "p".repeat(4 * MIB - 1024);
        for (int i = 0; i < LARGEST_REQUESTS; i++) {
          calls.add(
              call(
                  url,
                  session,
                  "get_deployment_job_v2",
                  "{\"job_id\":\"j\",\"pad\":\"" + pad + "\"}",
                  outcomes));
        }
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).join();
        assertThat(sidecar.alive()).as("the sidecar after round %d", round).isTrue();
        // Under the burst a request this large may be refused busy (the held bytes are full);
        // alone once the burst is over, it gets through.
        HttpResponse<String> alone =
            send(
                url,
                session,
                "get_deployment_job_v2",
                "{\"job_id\":\"alone-" + round + "\",\"pad\":\"" + pad + "\"}");
        assertThat(alone.body())
            .as("a request just under the limit, alone after round %d", round)
            .contains("alone-" + round);
      }

      assertThat(outcomes.keySet())
          .as("every response a result, a clear tool error or a 503: %s", outcomes)
          .isSubsetOf(
              "get_deployment_job ok",
              "get_deployment_job busy",
              "get_operation_by_key upstream_answer_too_large",
              "get_operation_by_key busy",
              "search_logs upstream_answer_too_large",
              "search_logs busy",
              "get_deployment_job_v2 ok",
              "get_deployment_job_v2 busy");
      assertThat(outcomes.get("get_deployment_job ok"))
          .as("answers just under the limit get through: %s", outcomes)
          .hasValueGreaterThanOrEqualTo(ROUNDS);
      assertThat(Files.readString(sidecar.stderr())).doesNotContain("OutOfMemoryError");
      HttpResponse<String> next =
          send(url, session, "get_deployment_job_v2", "{\"job_id\":\"after\"}");
      assertThat(next.body()).contains("\"job_id\":\"after\"");
      assertThat(sidecar.alive()).isTrue();
      Files.writeString(
          logs.resolve("outcomes.txt"),
          "outcomes: "
              + new java.util.TreeMap<>(outcomes)
              + "\npeak resident MiB: "
              + sidecar.peakResidentMib()
              + "\n");
    }
  }

  private static void inject(String backend, String tool, long bytes, int times) throws Exception {
    HttpResponse<String> injected =
        Http.post(
            backend + "/faults/" + tool,
            "{\"kind\":\"huge_answer\",\"bytes\":" + bytes + ",\"times\":" + times + "}");
    assertThat(injected.statusCode()).as(injected.body()).isLessThan(300);
  }

  private static CompletableFuture<Void> call(
      String url,
      String session,
      String tool,
      String arguments,
      ConcurrentHashMap<String, AtomicInteger> outcomes) {
    return CLIENT
        .sendAsync(request(url, session, tool, arguments), HttpResponse.BodyHandlers.ofString())
        .thenAccept(
            r ->
                outcomes
                    .computeIfAbsent(tool + " " + outcome(r), k -> new AtomicInteger())
                    .incrementAndGet())
        .exceptionally(
            e -> {
              outcomes.computeIfAbsent("failed: " + e, k -> new AtomicInteger()).incrementAndGet();
              return null;
            });
  }

  private static String outcome(HttpResponse<String> response) {
    if (response.statusCode() == 503) {
      return "busy";
    }
    String body = response.body();
    if (response.statusCode() != 200) {
      return "status " + response.statusCode();
    }
    if (body.contains("\"upstream_answer_too_large\"")) {
      return "upstream_answer_too_large";
    }
    if (body.contains("\"sidecar_overloaded\"")) {
      // Unlisted tools count as writes: the answer the sidecar let go is an ambiguous write.
      return "busy";
    }
    return body.contains("\"result\"") && !body.contains("\"isError\":true")
        ? "ok"
        : "other: " + body.substring(0, Math.min(300, body.length()));
  }

  private static HttpResponse<String> send(
      String url, String session, String tool, String arguments) throws Exception {
    return CLIENT.send(
        request(url, session, tool, arguments), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest request(String url, String session, String tool, String arguments) {
    return HttpRequest.newBuilder(URI.create(url))
        .timeout(Duration.ofSeconds(60))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("Mcp-Session-Id", session)
        .header("MCP-Protocol-Version", "2025-06-18")
        .POST(
            HttpRequest.BodyPublishers.ofString(
                "{\"jsonrpc\":\"2.0\",\"id\":\""
                    + tool
                    + System.nanoTime()
                    + "\",\"method\":\"tools/call\",\"params\":{\"name\":\""
                    + tool
                    + "\",\"arguments\":"
                    + arguments
                    + "}}"))
        .build();
  }
}
