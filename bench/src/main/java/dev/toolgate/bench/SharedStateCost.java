package dev.toolgate.bench;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.toolgate.demo.DemoBackend;
import dev.toolgate.demo.DemoBackendOptions;
import dev.toolgate.sidecar.Sidecar;
import dev.toolgate.sidecar.SidecarOptions;
import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.evidence.EventSink;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What the shared state costs a tool call, measured side by side in one run: the same sequential
 * calls (a read and a write, each quota-checked) go direct to the demo backend, through a sidecar
 * on local state, and through a sidecar whose quotas and idempotency records live in a Hazelcast
 * member on loopback. Calls are interleaved round-robin so all three see the same machine state.
 *
 * <p>Run: {@code ./mvnw -q -DskipTests install && java -cp "bench/target/classes:$(cat
 * bench/target/classpath.txt)" dev.toolgate.bench.SharedStateCost [calls]} — see bench/README.md.
 */
public final class SharedStateCost {

  private static final EventSink DISCARD =
      new EventSink() {
        @Override
        public void accept(AttemptEvent event) {}

        @Override
        public void audit(JsonObject record) {}
      };

  private SharedStateCost() {}

  public static void main(String[] args) throws Exception {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
    int warmup = Math.max(500, calls / 3);
    System.setProperty("hazelcast.logging.type", "none");
    Vertx vertx = Vertx.vertx();
    DemoBackend backend =
        DemoBackend.start(vertx, DemoBackendOptions.ephemeral()).await(10, TimeUnit.SECONDS);
    Config config = new Config().setClusterName("toolgate-bench");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config
        .getNetworkConfig()
        .setPort(5901)
        .setPortAutoIncrement(true)
        .getInterfaces()
        .setEnabled(true)
        .addInterface("127.0.0.1");
    config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
    config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
    HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
    int memberPort = member.getCluster().getLocalMember().getAddress().getPort();
    Path dir = Files.createTempDirectory("toolgate-bench");
    String tools =
        "tools:\n"
            + "  - {name: get_deployment_job, upstream: api, effect: read_only}\n"
            + "  - {name: restart_deployment_job, upstream: api, effect: idempotent_write,"
            + " idempotency: {keyComponents: [intent_id, /job_id]}}\n"
            + "quotas: {perSession: {read: 100000000, write: 100000000}, ratePerMinute: 100000000}\n";
    Sidecar local =
        sidecar(vertx, dir.resolve("local.yaml"), backend, tools + "sharedState: {mode: local}\n");
    Sidecar shared =
        sidecar(
            vertx,
            dir.resolve("shared.yaml"),
            backend,
            tools
                + "sharedState: {mode: client, clusterName: toolgate-bench, members: [\"127.0.0.1:"
                + memberPort
                + "\"]}\n");

    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    List<String> targets = List.of(backend.mcpUrl(), local.mcpUrl("api"), shared.mcpUrl("api"));
    String[] sessions = targets.stream().map(u -> initialize(http, u)).toArray(String[]::new);
    long[][] read = new long[3][calls];
    long[][] write = new long[3][calls];
    for (int i = -warmup; i < calls; i++) {
      for (int t = 0; t < 3; t++) {
        long r =
            call(
                http,
                targets.get(t),
                sessions[t],
                "get_deployment_job",
                "{\"job_id\":\"j1\"}",
                null);
        long w =
            call(
                http,
                targets.get(t),
                sessions[t],
                "restart_deployment_job",
                "{\"job_id\":\"j" + i + "\",\"environment\":\"prod\"}",
                "{\"dev.toolgate/intent-id\":\"b" + t + "-" + i + "\"}");
        if (i >= 0) {
          read[t][i] = r;
          write[t][i] = w;
        }
      }
    }
    System.out.printf(
        Locale.ROOT,
        "cores: %d, calls per target and tool: %d (after %d warm-up)%n",
        Runtime.getRuntime().availableProcessors(),
        calls,
        warmup);
    System.out.printf(
        Locale.ROOT,
        "%-44s %10s %10s %12s %12s%n",
        "target",
        "p50 ms",
        "p99 ms",
        "+p50 ms",
        "+p99 ms");
    String[] names = {"direct", "sidecar, local state", "sidecar, shared state (Hazelcast)"};
    for (String tool : List.of("read", "write")) {
      long[][] data = tool.equals("read") ? read : write;
      double base50 = pct(data[0], 50);
      double base99 = pct(data[0], 99);
      for (int t = 0; t < 3; t++) {
        System.out.printf(
            Locale.ROOT,
            "%-44s %10.3f %10.3f %12.3f %12.3f%n",
            tool + ": " + names[t],
            pct(data[t], 50),
            pct(data[t], 99),
            pct(data[t], 50) - base50,
            pct(data[t], 99) - base99);
      }
    }
    System.out.printf(
        Locale.ROOT,
        "shared state cost over local state: read +%.3f ms p50 / +%.3f ms p99; write +%.3f ms p50 / +%.3f ms p99%n",
        pct(read[2], 50) - pct(read[1], 50),
        pct(read[2], 99) - pct(read[1], 99),
        pct(write[2], 50) - pct(write[1], 50),
        pct(write[2], 99) - pct(write[1], 99));
    local.close().await(10, TimeUnit.SECONDS);
    shared.close().await(10, TimeUnit.SECONDS);
    member.shutdown();
    vertx.close().await(10, TimeUnit.SECONDS);
    System.exit(0);
  }

  private static Sidecar sidecar(Vertx vertx, Path file, DemoBackend backend, String extra)
      throws Exception {
    Files.writeString(
        file,
        "listen: {host: 127.0.0.1, port: 0}\nadmin: {host: 127.0.0.1, port: 0}\n"
            + "upstreams: [{name: api, url: \""
            + backend.mcpUrl()
            + "\"}]\n"
            + extra);
    return Sidecar.start(
            vertx,
            new SidecarOptions(
                file,
                // A configuration this run wrote itself, on this machine.
                dev.toolgate.sidecar.config.ConfigTrust.unsignedFileAllowed(null),
                DISCARD,
                Clock.systemUTC()))
        .await(30, TimeUnit.SECONDS);
  }

  private static String initialize(HttpClient http, String url) {
    try {
      HttpResponse<String> r =
          http.send(
              request(
                  url,
                  null,
                  "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"}}"),
              HttpResponse.BodyHandlers.ofString());
      return r.headers().firstValue("Mcp-Session-Id").orElseThrow();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static long call(
      HttpClient http, String url, String session, String tool, String args, String meta) {
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\""
            + tool
            + "\",\"arguments\":"
            + args
            + (meta == null ? "" : ",\"_meta\":" + meta)
            + "}}";
    long start = System.nanoTime();
    try {
      HttpResponse<String> r =
          http.send(request(url, session, body), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200 || r.body().contains("\"isError\":true")) {
        throw new IllegalStateException("call failed: " + r.body());
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return System.nanoTime() - start;
  }

  private static HttpRequest request(String url, String session, String body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      b.header("Mcp-Session-Id", session);
    }
    return b.build();
  }

  private static double pct(long[] nanos, int p) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, index)] / 1_000_000.0;
  }
}
