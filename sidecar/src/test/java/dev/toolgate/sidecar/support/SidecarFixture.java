package dev.toolgate.sidecar.support;

import dev.toolgate.demo.DemoBackend;
import dev.toolgate.demo.DemoBackendOptions;
import dev.toolgate.sidecar.Sidecar;
import dev.toolgate.sidecar.SidecarOptions;
import dev.toolgate.sidecar.config.ConfigLoader;
import dev.toolgate.sidecar.config.ConfigTrust;
import dev.toolgate.sidecar.evidence.EventSink;
import dev.toolgate.sidecar.metrics.ToolgateMetrics;
import dev.toolgate.sidecar.proxy.Proxy;
import dev.toolgate.sidecar.proxy.Routing;
import dev.toolgate.sidecar.state.Stores;
import dev.toolgate.trust.ConfigSignatures;
import dev.toolgate.trust.SigningKey;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A sidecar on loopback (ports chosen at run time) in front of the demo backend, configured from
 * the demo configuration in {@code examples/} with extra upstreams, plus a plain HTTP client.
 */
public final class SidecarFixture implements AutoCloseable {

  public static final String API = "deployment-api";
  public static final String ACCEPT_BOTH = "application/json, text/event-stream";
  private static final Path DEMO_CONFIG = Path.of("../e2e/demo/sidecar.yaml");

  public final Vertx vertx = Vertx.vertx(Sidecar.vertxOptions());
  public final RecordingEvents events = new RecordingEvents();
  public final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  public final DemoBackend backend;
  public final Path configFile;
  public final Sidecar sidecar;

  private final boolean ownsBackend;

  private SidecarFixture(
      Path dir, DemoBackend shared, Map<String, String> extraUpstreams, String extraYaml)
      throws Exception {
    ownsBackend = shared == null;
    backend =
        shared != null
            ? shared
            : DemoBackend.start(vertx, DemoBackendOptions.ephemeral()).await(10, TimeUnit.SECONDS);
    if (!extraYaml.contains("sharedState:")) {
      // Local state unless a test asks for Hazelcast: quick, and no member to start.
      extraYaml = extraYaml + "sharedState: {mode: local}\n";
    }
    if (!extraYaml.contains("defaults:")) {
      // Tests call tools of their own upstreams that the demo policy does not name; unless a test
      // is about unlisted tools, they do not borrow the approval of the demo's named write.
      extraYaml = extraYaml + "defaults: {approval: none}\n";
    }
    if (!extraYaml.contains("warmupCalls")) {
      // No warm-up unless a test asks: its CPU right after ready would slow the cases timed in ms.
      extraYaml =
          extraYaml.contains("runtime: {")
              ? extraYaml.replace("runtime: {", "runtime: {warmupCalls: 0, ")
              : extraYaml + "runtime: {warmupCalls: 0}\n";
    }
    configFile = dir.resolve("sidecar.yaml");
    writeApprovalKey(dir);
    writeConfig(config(backend.mcpUrl(), extraUpstreams, extraYaml, 1));
    sidecar =
        Sidecar.start(vertx, new SidecarOptions(configFile, trust(), events, Clock.systemUTC()))
            .await(20, TimeUnit.SECONDS);
  }

  /** The operator key fixtures sign configurations with; their sidecars trust its public half. */
  public static final SigningKey CONFIG_KEY = SigningKey.generate("test-operator");

  private static final AtomicLong PUBLICATIONS = new AtomicLong();

  /** What a fixture's sidecar trusts: configurations signed with {@link #CONFIG_KEY}. */
  public static ConfigTrust trust() {
    return ConfigTrust.signedBy(CONFIG_KEY.publicKeys());
  }

  /** {@code yaml} signed as the operator's next publication. */
  public static byte[] signed(String yaml) {
    return ConfigSignatures.sign(
        yaml.getBytes(StandardCharsets.UTF_8), CONFIG_KEY, PUBLICATIONS.incrementAndGet(), false);
  }

  /** Replaces the configuration file with {@code yaml}, signed as the next publication. */
  public void writeConfig(String yaml) throws IOException {
    Files.write(configFile, signed(yaml));
  }

  public static SidecarFixture start(Path dir) throws Exception {
    return new SidecarFixture(dir, null, Map.of(), "");
  }

  public static SidecarFixture start(Path dir, Map<String, String> extraUpstreams, String extraYaml)
      throws Exception {
    return new SidecarFixture(dir, null, new LinkedHashMap<>(extraUpstreams), extraYaml);
  }

  /** A sidecar in front of a backend another fixture owns: replicas of one agent. */
  public static SidecarFixture replica(Path dir, DemoBackend backend, String extraYaml)
      throws Exception {
    return new SidecarFixture(dir, backend, Map.of(), extraYaml);
  }

  /**
   * The demo configuration with loopback ports from 0, the given upstreams and extra fields; a
   * top-level field of {@code extraYaml} replaces the demo's (the loader refuses a field given
   * twice).
   */
  public static String config(
      String backendUrl, Map<String, String> extraUpstreams, String extraYaml, long revision)
      throws IOException {
    String yaml =
        Files.readString(DEMO_CONFIG)
            .replace("http://127.0.0.1:18080/mcp", backendUrl)
            .replace("port: 17000", "port: 0")
            .replace("port: 17020", "port: 0")
            .replace("revision: 1", "revision: " + revision);
    StringBuilder upstreams = new StringBuilder("upstreams:\n");
    extraUpstreams.forEach(
        (name, url) ->
            upstreams
                .append("- {name: ")
                .append(name)
                .append(", url: \"")
                .append(url)
                .append("\"}\n"));
    String kept = withoutFieldsOf(extraYaml, yaml.replace("upstreams:\n", upstreams.toString()));
    return (kept.endsWith("\n") ? kept : kept + "\n") + extraYaml;
  }

  private static final Pattern TOP_LEVEL_FIELD =
      Pattern.compile("^([A-Za-z]+):", Pattern.MULTILINE);

  /**
   * {@code yaml} without the top-level fields that {@code extraYaml} gives, each with its block.
   */
  private static String withoutFieldsOf(String extraYaml, String yaml) {
    Set<String> replaced =
        TOP_LEVEL_FIELD
            .matcher(extraYaml)
            .results()
            .map(m -> m.group(1))
            .collect(Collectors.toSet());
    StringBuilder kept = new StringBuilder();
    boolean skipping = false;
    for (String line : yaml.split("\n", -1)) {
      Matcher field = TOP_LEVEL_FIELD.matcher(line);
      if (field.find()) {
        skipping = replaced.contains(field.group(1));
      }
      if (!skipping) {
        kept.append(line).append('\n');
      }
    }
    return kept.substring(0, kept.length() - 1);
  }

  /** An approver's private key: the tests sign approvals with it, as a human would. */
  public static final SigningKey APPROVER = SigningKey.generate("approver-test");

  /**
   * Writes the approver's public key set where the demo configuration points
   * (approvals.publicKeysFile), relative to the configuration.
   */
  public static void writeApprovalKey(Path configDir) throws IOException {
    Files.createDirectories(configDir.resolve("target"));
    Files.writeString(
        configDir.resolve("target/approval-keys.json"), APPROVER.publicKeys().toJson());
  }

  /**
   * A loopback URL where nothing listens: port 1 (tcpmux) is never served here. A port taken free
   * and released could be reused at once by a listener of the same test.
   */
  public static String deadUrl() {
    return "http://127.0.0.1:1/mcp";
  }

  public String url(String upstream) {
    return sidecar.mcpUrl(upstream);
  }

  public String adminUrl(String path) {
    return "http://127.0.0.1:" + sidecar.adminPort() + path;
  }

  public HttpRequest.Builder post(String upstream, String body) {
    return HttpRequest.newBuilder(URI.create(url(upstream)))
        .timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .header("Accept", ACCEPT_BOTH)
        .POST(HttpRequest.BodyPublishers.ofString(body));
  }

  public HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** Initializes an MCP session on an upstream; returns its session id. */
  public String initialize(String upstream) throws Exception {
    HttpResponse<String> response =
        send(
            post(
                upstream,
                """
            {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",
             "capabilities":{},"clientInfo":{"name":"it","version":"1"}}}"""));
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "initialize failed: " + response.statusCode() + " " + response.body());
    }
    String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    send(
        post(upstream, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
            .header("Mcp-Session-Id", session));
    return session;
  }

  /**
   * A proxy alone (no admin listener, no warm-up) on the demo configuration plus {@code extraYaml},
   * over {@code backend}, with the events and stores a test stands in: on 127.0.0.1, a port from 0.
   */
  public static HttpServer proxy(
      Vertx vertx, Path dir, DemoBackend backend, String extraYaml, EventSink events, Stores stores)
      throws Exception {
    Path file = dir.resolve("sidecar.yaml");
    writeApprovalKey(dir);
    Files.write(
        file,
        signed(config(backend.mcpUrl(), Map.of(), extraYaml + "runtime: {warmupCalls: 0}\n", 1)));
    Proxy proxy =
        Proxy.create(
            vertx,
            Routing.of(new ConfigLoader(Clock.systemUTC(), trust()).load(file)),
            events,
            ToolgateMetrics.detached(),
            Clock.systemUTC(),
            stores);
    return vertx
        .createHttpServer()
        .requestHandler(proxy.handler())
        .listen(0, "127.0.0.1")
        .await(10, TimeUnit.SECONDS);
  }

  /**
   * A 2026-07-28 {@code tools/call} POST of {@code call} to a proxy on {@code port}, the method and
   * tool in headers too.
   */
  public static HttpRequest toolCallRequest(int port, String tool, String call) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp/" + API))
        .header("Accept", ACCEPT_BOTH)
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", tool)
        .POST(HttpRequest.BodyPublishers.ofString(call))
        .build();
  }

  public static String toolCall(Object id, String tool, String argumentsJson, String metaJson) {
    return new JsonObject()
        .put("jsonrpc", "2.0")
        .put("id", id)
        .put("method", "tools/call")
        .put(
            "params",
            new JsonObject()
                .put("name", tool)
                .put("arguments", new JsonObject(argumentsJson))
                .put("_meta", metaJson == null ? null : new JsonObject(metaJson)))
        .encode()
        .replace(",\"_meta\":null", "");
  }

  public String admin(String path) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create(adminUrl(path)))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Override
  public void close() throws Exception {
    try {
      sidecar.close().await(20, TimeUnit.SECONDS);
      if (ownsBackend) {
        backend.close().await(10, TimeUnit.SECONDS);
      }
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
