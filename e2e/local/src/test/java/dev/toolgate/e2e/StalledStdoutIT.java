package dev.toolgate.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolgate.e2e.support.DemoBackend;
import dev.toolgate.e2e.support.LocalProcess;
import dev.toolgate.e2e.support.LoopbackPorts;
import dev.toolgate.e2e.support.PassThroughConfig;
import dev.toolgate.e2e.support.SidecarImage;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log collector that stops reading must not stall tool calls. The sidecar (its jar, started with
 * the image's JVM options) runs with stdout a pipe that nobody reads: the pipe fills after about a
 * hundred events, the sidecar's queue after 8,192 more; the calls go on regardless, the sidecar
 * counts what it dropped, and once stdout is read again the stream says where its gap is.
 */
class StalledStdoutIT {

  private static final Path ROOT =
      Path.of(System.getProperty("toolgate.root", "../..")).toAbsolutePath().normalize();
  private static final int CALLS = 12_000;
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @TempDir Path work;

  @Test
  void callsGoOnWhileNobodyReadsStdoutAndTheGapIsCountedAndRecorded() throws Exception {
    Path logs = work.resolve("logs");
    int backendPort = LoopbackPorts.next();
    int mcpPort = LoopbackPorts.next();
    int adminPort = LoopbackPorts.next();
    List<AutoCloseable> running = new ArrayList<>();
    try {
      LocalProcess backend = DemoBackend.start("demo-backend", ROOT, logs, backendPort);
      running.add(backend);
      Path config = work.resolve("sidecar.yaml");
      Files.writeString(
          config,
          PassThroughConfig.yaml(mcpPort, adminPort, "http://127.0.0.1:" + backendPort + "/mcp"));
      ProcessBuilder sidecarCommand =
          new ProcessBuilder(
                  LocalProcess.JAVA,
                  "@" + ROOT.resolve("sidecar/src/main/jvm/jvm.options"),
                  "-jar",
                  ROOT.resolve("sidecar/target/toolgate-sidecar.jar").toString(),
                  "--config",
                  config.toString(),
                  "--allow-unsigned-config")
              .redirectError(logs.resolve("sidecar.err").toFile());
      sidecarCommand.environment().putAll(SidecarImage.environment(ROOT));
      Process sidecar = sidecarCommand.start();
      running.add(sidecar::destroyForcibly);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  Http.ok("http://127.0.0.1:" + backendPort + "/ledger")
                      && Http.ok("http://127.0.0.1:" + adminPort + "/readyz"));

      String url = "http://127.0.0.1:" + mcpPort + "/mcp/" + PassThroughConfig.UPSTREAM;
      String session =
          Http.post(
                  url,
                  """
          {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",
           "capabilities":{},"clientInfo":{"name":"stalled-stdout","version":"1"}}}""")
              .headers()
              .firstValue("Mcp-Session-Id")
              .orElseThrow();

      AtomicInteger answered = new AtomicInteger();
      Semaphore inFlight = new Semaphore(32);
      List<CompletableFuture<Void>> calls = new ArrayList<>();
      for (int i = 1; i <= CALLS; i++) {
        inFlight.acquire();
        HttpRequest call =
            HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "2025-06-18")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":"
                            + i
                            + ",\"method\":\"tools/call\","
                            + "\"params\":{\"name\":\"get_deployment_job\",\"arguments\":{\"job_id\":\"j1\"}}}"))
                .build();
        calls.add(
            CLIENT
                .sendAsync(call, HttpResponse.BodyHandlers.ofString())
                .thenAccept(
                    r -> {
                      if (r.statusCode() == 200
                          && r.body().contains("\"result\"")
                          && !r.body().contains("\"isError\":true")) {
                        answered.incrementAndGet();
                      }
                    })
                .whenComplete((v, e) -> inFlight.release()));
      }
      CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).join();
      assertThat(answered).as("every call answered, none timed out").hasValue(CALLS);

      double dropped =
          await()
              .atMost(Duration.ofSeconds(10))
              .until(() -> droppedEvents("http://127.0.0.1:" + adminPort + "/metrics"), d -> d > 0);
      assertThat(dropped).isLessThan(CALLS);

      // Reading stdout again: the lines written before the stall are whole, then the gap is
      // recorded.
      BufferedReader stdout =
          new BufferedReader(
              new InputStreamReader(sidecar.getInputStream(), StandardCharsets.UTF_8));
      JsonNode first = LocalStack.JSON.readTree(stdout.readLine());
      assertThat(first.get("event").asText()).isEqualTo("tool_attempt");
      JsonNode gap =
          CompletableFuture.supplyAsync(() -> firstGap(stdout)).get(30, TimeUnit.SECONDS);
      assertThat(gap).as("an events_dropped line").isNotNull();
      assertThat(gap.get("count").asLong()).isPositive();
    } finally {
      for (AutoCloseable process : running) {
        process.close();
      }
    }
  }

  /** The first events_dropped record of the stream, or null if it ends without one. */
  private static JsonNode firstGap(BufferedReader stdout) {
    try {
      for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
        JsonNode event = LocalStack.JSON.readTree(line);
        if (event.get("event").asText().equals("events_dropped")) {
          return event;
        }
      }
      return null;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static double droppedEvents(String metricsUrl) throws Exception {
    return Http.get(metricsUrl)
        .body()
        .lines()
        .filter(l -> l.startsWith("toolgate_events_dropped_total"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }
}
