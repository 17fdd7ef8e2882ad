package dev.toolgate.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolgate.e2e.support.DemoBackend;
import dev.toolgate.e2e.support.LocalHazelcast;
import dev.toolgate.e2e.support.LocalProcess;
import dev.toolgate.e2e.support.LoopbackPorts;
import dev.toolgate.e2e.support.SidecarImage;
import dev.toolgate.trust.SigningKey;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The soak: the sidecar (its jar, the image's JVM options, seed 000's policy on a Hazelcast member)
 * under a steady load for minutes while faults come and go in turn: the backend's 503 bursts, the
 * backend killed and started again, the shared state down for a minute, configuration reloads and
 * slow connections. Reports the sidecar's resident memory over time, the answers by class, and the
 * backend's operations against the agent's write intents.
 */
@Command(
    name = "bench/soak",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the sidecar for minutes under load and rotating faults; writes"
          + " bench/target/soak/report.md."
    })
public final class SoakBench implements Callable<Integer> {

  @Option(
      names = "--minutes",
      defaultValue = "10",
      description =
          "How long the load runs (default ${DEFAULT-VALUE}); the faults' schedule scales"
              + " with it.")
  int minutes;

  @Option(
      names = "--rate",
      defaultValue = "200",
      description = "Tool calls per second (default ${DEFAULT-VALUE}).")
  int rate;

  @Option(
      names = "--slow-connections",
      defaultValue = "200",
      description = "Slow connections held during their phase (default ${DEFAULT-VALUE}).")
  int slowConnections;

  @Option(
      names = "--sessions",
      defaultValue = "8",
      description = "MCP sessions the load is spread over (default ${DEFAULT-VALUE}).")
  int sessions;

  private static final Path ROOT = Path.of("").toAbsolutePath();
  private static final long SAMPLE_SECONDS = 30;

  public static void main(String[] args) {
    System.exit(new CommandLine(new SoakBench()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    if (minutes < 1 || rate < 1 || sessions < 1 || slowConnections < 0) {
      throw new CommandLine.ParameterException(
          new CommandLine(this),
          "--minutes, --rate and --sessions must be >= 1 and --slow-connections >= 0");
    }
    Path work = ROOT.resolve("bench/target/soak");
    Path logs = work.resolve("logs");
    Files.createDirectories(logs);
    List<AutoCloseable> running = new ArrayList<>();
    Vertx vertx = Vertx.vertx();
    try {
      int hazelcastPort = LoopbackPorts.next();
      int backendPort = LoopbackPorts.next();
      int mcpPort = LoopbackPorts.next();
      int adminPort = LoopbackPorts.next();
      LocalProcess[] member = {LocalHazelcast.start(work, logs, hazelcastJar(), hazelcastPort)};
      LocalProcess[] backend = {startBackend(logs, backendPort, 0)};
      SigningKey approver = SigningKey.generate("soak-approver");
      Path config = work.resolve("sidecar.yaml");
      long[] revision = {1};
      writeConfig(config, work, approver, backendPort, hazelcastPort, mcpPort, adminPort, 1);
      LocalProcess sidecar =
          LocalProcess.java(
              "sidecar",
              logs,
              SidecarImage.javaArguments(ROOT, config),
              SidecarImage.environment(ROOT));
      running.add(sidecar);
      sidecar.awaitListening(mcpPort, 60, "the sidecar");
      String path = "/mcp/deployment-api";
      String[] ids = new String[sessions];
      for (int i = 0; i < sessions; i++) {
        ids[i] = openSession(vertx, mcpPort, path).toCompletionStage().toCompletableFuture().get();
      }
      SoakReport report = new SoakReport(minutes, rate, slowConnections);
      long operationsBefore = 0;
      try (SoakLoad load =
          new SoakLoad(vertx, mcpPort, path, approver, ids, v -> openSession(v, mcpPort, path))) {
        SlowConnections slow = null;
        load.start(rate);
        long total = minutes * 60L;
        for (long second = 1; second <= total; second++) {
          Thread.sleep(1_000);
          List<String> events = new ArrayList<>();
          if (second % at(60) == at(30) % at(60)) {
            fault(backendPort, "{\"kind\":\"status\",\"status\":503,\"times\":" + rate + "}");
            events.add("backend 503 burst (" + rate + " calls)");
          }
          if (second == at(150)) {
            operationsBefore += operations(backendPort);
            backend[0].close();
            events.add("backend killed");
          }
          if (second == at(165)) {
            backend[0] = startBackend(logs, backendPort, 1);
            events.add("backend started again");
          }
          if (second == at(270)) {
            member[0].close();
            events.add("shared state down");
          }
          if (second == at(330)) {
            member[0] = LocalHazelcast.start(work, logs, hazelcastJar(), hazelcastPort);
            events.add("shared state up");
          }
          if (second % at(120) == 0) {
            revision[0]++;
            writeConfig(
                config,
                work,
                approver,
                backendPort,
                hazelcastPort,
                mcpPort,
                adminPort,
                revision[0]);
            events.add("configuration reloaded (revision " + revision[0] + ")");
          }
          if (second == at(420) && slowConnections > 0) {
            slow = SlowConnections.start(mcpPort, slowConnections);
            events.add(slowConnections + " slow connections");
          }
          if (second == at(480) && slow != null) {
            events.add(
                "slow connections stopped; the sidecar cut them " + slow.reopened() + " times");
            slow.close();
            slow = null;
          }
          for (String e : events) {
            report.event(second, e);
          }
          if (second % SAMPLE_SECONDS == 0 || second == total) {
            report.sample(second, sidecar.residentMib(), sidecar.alive(), load.outcomes());
          }
        }
        if (slow != null) {
          slow.close();
        }
        load.close();
        Thread.sleep(35_000); // the calls still in flight (30 s client timeout) answer or fail
        report.writes(
            load.intents(), load.writeRequests(), operationsBefore + operations(backendPort));
        report.finish(load.outcomes(), sidecar.alive(), sidecar.peakResidentMib());
      }
      backend[0].close();
      member[0].close();
      Path out = work.resolve("report.md");
      Files.writeString(out, report.markdown());
      System.out.print(report.markdown());
      System.out.println("written to " + ROOT.relativize(out));
      return 0;
    } finally {
      for (AutoCloseable c : running) {
        c.close();
      }
      vertx.close();
    }
  }

  private static LocalProcess startBackend(Path logs, int port, int generation) throws Exception {
    LocalProcess backend = DemoBackend.start("backend-" + generation, ROOT, logs, port);
    backend.awaitListening(port, 60, "the demo backend");
    return backend;
  }

  /**
   * Seed 000's rendered policy on the member, quotas out of the load's way (still counted), with
   * {@code revision}: each write is a reload.
   */
  private static void writeConfig(
      Path config,
      Path work,
      SigningKey approver,
      int backendPort,
      int hazelcastPort,
      int mcpPort,
      int adminPort,
      long revision)
      throws Exception {
    ObjectNode doc =
        (ObjectNode) LoadBench.YAML.readTree(ROOT.resolve("e2e/demo/sidecar.yaml").toFile());
    doc.put("revision", revision);
    doc.putObject("listen").put("host", "127.0.0.1").put("port", mcpPort);
    doc.putObject("admin").put("host", "127.0.0.1").put("port", adminPort);
    doc.putObject("sharedState")
        .put("mode", "client")
        .put("clusterName", "toolgate")
        .putArray("members")
        .add("127.0.0.1:" + hazelcastPort);
    Path keys = work.resolve("approval-keys.json");
    Files.writeString(keys, approver.publicKeys().toJson());
    doc.putObject("approvals").put("publicKeysFile", keys.toString());
    ((ObjectNode) doc.withArray("upstreams").get(0))
        .put("url", "http://127.0.0.1:" + backendPort + "/mcp");
    ObjectNode quotas = (ObjectNode) doc.get("quotas");
    quotas.putObject("perSession").put("read", 1_000_000_000).put("write", 1_000_000_000);
    quotas.put("ratePerMinute", 1_000_000_000);
    Path next = work.resolve("sidecar.yaml.next");
    LoadBench.YAML.writeValue(next.toFile(), doc);
    Files.move(next, config, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static Future<String> openSession(Vertx vertx, int port, String path) {
    return vertx
        .createHttpClient()
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setHost("127.0.0.1")
                .setPort(port)
                .setURI(path)
                .putHeader("Content-Type", "application/json")
                .putHeader("Accept", "application/json, text/event-stream"))
        .compose(
            r ->
                r.send(
                    new JsonObject()
                        .put("jsonrpc", "2.0")
                        .put("id", 0)
                        .put("method", "initialize")
                        .put(
                            "params",
                            new JsonObject()
                                .put("protocolVersion", "2025-06-18")
                                .put("capabilities", new JsonObject())
                                .put(
                                    "clientInfo",
                                    new JsonObject().put("name", "soak").put("version", "1")))
                        .toBuffer()))
        .compose(
            r -> {
              String id = r.getHeader("Mcp-Session-Id");
              return r.body()
                  .compose(
                      b ->
                          id == null
                              ? Future.failedFuture("no session: " + r.statusCode() + " " + b)
                              : Future.succeededFuture(id));
            });
  }

  private static void fault(int backendPort, String json) {
    try {
      HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + backendPort + "/faults/get_deployment_job"))
                  .timeout(Duration.ofSeconds(5))
                  .POST(HttpRequest.BodyPublishers.ofString(json))
                  .build(),
              HttpResponse.BodyHandlers.discarding());
    } catch (Exception e) {
      // The backend is down now: no burst this time.
    }
  }

  /** The write operations the backend performed in its current life. */
  private static long operations(int backendPort) {
    try {
      String ledger =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + backendPort + "/ledger"))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      return new JsonObject(ledger)
          .getJsonObject("operationsPerformed", new JsonObject())
          .getLong("restart_deployment_job", 0L);
    } catch (Exception e) {
      return 0;
    }
  }

  private static String hazelcastJar() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(p -> p.matches(".*hazelcast-5[^/]*\\.jar"))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("the Hazelcast jar is not on the class path"));
  }

  /** The second of this run at which a ten-minute run is at {@code tenMinuteSecond}. */
  private long at(long tenMinuteSecond) {
    return Math.max(1, tenMinuteSecond * minutes / 10);
  }
}
