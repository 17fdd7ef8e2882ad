package dev.toolgate.e2e;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.toolgate.e2e.support.DemoBackend;
import dev.toolgate.e2e.support.FreshDirectory;
import dev.toolgate.e2e.support.LocalProcess;
import dev.toolgate.e2e.support.LoopbackPorts;
import dev.toolgate.e2e.support.SidecarImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Everything the suite runs, as separate processes on 127.0.0.1 with ports chosen at run time: two
 * state members ({@link StateCluster}), the demo backend, and two sidecar replicas (started with
 * the image's JVM options, each calling another member) whose configuration is what the operator's
 * {@code render} makes of a ToolPolicy, signed.
 */
final class LocalStack implements Toolgate {

  static final String POLICY = "deployment-tools";
  static final String UPSTREAM = "deployment-api";
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  static final ObjectMapper JSON = new ObjectMapper();

  final Path root;
  final Path work;
  final Path logs;

  /** The approver's private key: approvals are signed with it, as a human would. */
  final Path approvalKey;

  /** Its public half, the only approval key the sidecars are given. */
  final Path approvalKeys;

  private final Path signingKey;
  private final Path configKeys;

  /** The newest revision made active: activating an older one is a signed rollback. */
  private long highestActivated = 1;

  private StateCluster state;
  final int backendPort;
  private final List<Replica> replicas = new ArrayList<>();
  final Map<Long, Path> revisions = new LinkedHashMap<>();
  private final List<LocalProcess> processes = new ArrayList<>();

  /** One sidecar replica: its ports, its active configuration file, its process. */
  record Replica(Endpoint endpoint, Path config, LocalProcess process, long readyMillis) {
    String name() {
      return endpoint.name();
    }
  }

  private LocalStack(Path root) throws IOException, InterruptedException {
    this.root = root;
    this.work = root.resolve("e2e/local/target/e2e-run");
    this.logs = work.resolve("logs");
    FreshDirectory.create(work);
    Files.createDirectories(logs);
    this.approvalKey = work.resolve("approver.jwk");
    this.approvalKeys = work.resolve("approval-keys.json");
    LocalProcess.runJava(
        logs,
        "approval-keygen",
        List.of(
            "-jar",
            jar("sidecar", "toolgate-sidecar.jar").toString(),
            "approve",
            "keygen",
            "--key-id",
            "e2e-approver",
            "--private",
            approvalKey.toString(),
            "--public",
            approvalKeys.toString()));
    this.signingKey = work.resolve("config-signing.jwk");
    this.configKeys = work.resolve("config-keys.json");
    LocalProcess.runJava(
        logs,
        "keygen",
        List.of(
            "-jar",
            jar("operator", "toolgate-operator.jar").toString(),
            "keygen",
            "--key-id",
            "e2e-operator",
            "--private",
            signingKey.toString(),
            "--public",
            configKeys.toString()));
    this.backendPort = LoopbackPorts.next();
    this.upstreamTokenFile = work.resolve("deployment-api.token");
    Files.writeString(upstreamTokenFile, UPSTREAM_TOKEN + "\n");
  }

  /**
   * The credential the backend requires and only the sidecars hold (in the ToolPolicy's {@code
   * upstreams[].auth}): the agent calling the backend itself is refused.
   */
  static final String UPSTREAM_TOKEN = "e2e-sidecar-credential-7f3a";

  private final Path upstreamTokenFile;

  @Override
  public String upstreamCredential() {
    return "Bearer " + UPSTREAM_TOKEN;
  }

  static LocalStack start(Path root) throws Exception {
    LocalStack stack = new LocalStack(root);
    try {
      stack.state = StateCluster.start(root, stack.work, stack.logs);
      stack.startBackend();
      stack.writeRevision(1, spec -> {});
      stack.startReplica("replica-a");
      stack.startReplica("replica-b");
      return stack;
    } catch (Exception | AssertionError e) {
      stack.close();
      throw e;
    }
  }

  Path jar(String module, String name) {
    Path jar = root.resolve(module).resolve("target").resolve(name);
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          jar + " is missing: build the project first (./mvnw -B verify builds it)");
    }
    return jar;
  }

  private void startBackend() throws Exception {
    processes.add(
        DemoBackend.start(
            "demo-backend",
            root,
            logs,
            backendPort,
            "--require-bearer-file",
            upstreamTokenFile.toString()));
    await("the demo backend answers")
        .atMost(Duration.ofSeconds(60))
        .until(() -> Http.ok(backend("/ledger")));
  }

  @Override
  public String backend(String path) {
    return "http://127.0.0.1:" + backendPort + path;
  }

  /**
   * Seed 000's ToolPolicy (e2e/demo/toolpolicy.yaml) with its budgets and breakers compressed so
   * the suite runs in seconds; the changes are listed in the evidence report.
   */
  static final Map<String, String> COMPRESSION =
      Map.of(
          "spec.budget",
              "journeyMs 6000, agentMs 5000, reserveForFinalResponseMs 1000, transportMs 3000, backendMs 800"
                  + " (seed: 20000 / 15000 / 3000 / 10000 / 7000)",
          "get_deployment_job.breaker",
              "minimumCalls 4, openSeconds 2, probeCalls 2 (seed: 20, 30, 3)",
          "get_deployment_job.retry.backoff", "initialMs 50, maxMs 200 (seed: 250, 1500)",
          "restart_deployment_job.breaker",
              "added: minimumCalls 2, failureRatio 0.5, openSeconds 2 (seed: none)",
          "quotas.notify",
              "added: a webhook on a closed HTTPS port, to see the attempt counted (seed: an e-mail)",
          "upstreams.auth",
              "added: a bearer token the backend requires, which only the sidecars hold (seed: none)");

  static ObjectNode compressedPolicy(Path root) throws IOException {
    ObjectNode doc = (ObjectNode) YAML.readTree(root.resolve("e2e/demo/toolpolicy.yaml").toFile());
    ObjectNode spec = (ObjectNode) doc.get("spec");
    spec.set(
        "budget",
        YAML.valueToTree(
            Map.of(
                "journeyMs",
                6000,
                "agentMs",
                5000,
                "reserveForFinalResponseMs",
                1000,
                "transportMs",
                3000,
                "backendMs",
                800)));
    for (JsonNode tool : spec.get("tools")) {
      ObjectNode t = (ObjectNode) tool;
      switch (t.get("name").asText()) {
        case "get_deployment_job" -> {
          ((ObjectNode) t.get("retry").get("backoff")).put("initialMs", 50).put("maxMs", 200);
          ObjectNode breaker = (ObjectNode) t.get("breaker");
          breaker.put("minimumCalls", 4).put("openSeconds", 2).put("windowSeconds", 30);
          ((ObjectNode) breaker.get("halfOpen")).put("probeCalls", 2);
        }
        case "restart_deployment_job" ->
            t.set(
                "breaker",
                YAML.valueToTree(
                    Map.of(
                        "minimumCalls",
                        2,
                        "failureRatio",
                        0.5,
                        "openSeconds",
                        2,
                        "halfOpen",
                        Map.of("probeCalls", 1, "concurrentProbes", 1))));
        default -> {}
      }
    }
    return doc;
  }

  ObjectNode basePolicy() throws IOException {
    ObjectNode doc = compressedPolicy(root);
    ObjectNode spec = (ObjectNode) doc.get("spec");
    Path secret = work.resolve("notify.secret");
    Files.writeString(secret, "e2e-notification-signing-key-0123456789");
    ((ObjectNode) spec.get("quotas"))
        .set(
            "notify",
            YAML.valueToTree(
                Map.of(
                    "webhookUrl",
                    "https://127.0.0.1:" + LoopbackPorts.next() + "/toolgate/quota",
                    "secretFile",
                    secret.toString())));
    for (JsonNode upstream : spec.get("upstreams")) {
      ((ObjectNode) upstream)
          .set("auth", YAML.valueToTree(Map.of("bearerTokenFile", upstreamTokenFile.toString())));
    }
    return doc;
  }

  /**
   * Writes revision N of the ToolPolicy: the base policy with {@code change} applied to its spec.
   */
  @Override
  public void writeRevision(long revision, Consumer<ObjectNode> change) throws IOException {
    ObjectNode doc = basePolicy();
    change.accept((ObjectNode) doc.get("spec"));
    Path file = work.resolve("toolpolicy-r" + revision + ".yaml");
    YAML.writeValue(file.toFile(), doc);
    revisions.put(revision, file);
  }

  /** {@code render}'s arguments, signing a revision older than the newest active as a rollback. */
  private List<String> withRollbackFlag(long revision, List<String> args) {
    List<String> all = new java.util.ArrayList<>(args);
    if (revision < highestActivated) {
      all.add("--rollback");
    }
    return all;
  }

  /** {@code toolgate-operator render} for one replica's ports. */
  String render(long revision, int replica, int mcpPort, int adminPort) throws Exception {
    return LocalProcess.runJava(
        logs,
        "render-r" + revision + "-" + mcpPort,
        withRollbackFlag(
            revision,
            List.of(
                "-jar",
                jar("operator", "toolgate-operator.jar").toString(),
                "render",
                "-f",
                revisions.get(revision).toString(),
                "--revision",
                Long.toString(revision),
                "--signing-key",
                signingKey.toString(),
                "--agent",
                "e2e-agent",
                "--shared-state",
                "api",
                "--state-url",
                state.url(replica),
                "--state-ca-file",
                state.caFile.toString(),
                "--state-token-file",
                state.sidecarToken.toString(),
                "--approval-keys-file",
                approvalKeys.toString(),
                "--admin-host",
                "127.0.0.1",
                "--upstream",
                UPSTREAM + "=" + backend("/mcp"),
                "--listen-port",
                Integer.toString(mcpPort),
                "--admin-port",
                Integer.toString(adminPort))));
  }

  private void startReplica(String name) throws Exception {
    int mcp = LoopbackPorts.next();
    int admin = LoopbackPorts.next();
    Path dir = Files.createDirectories(work.resolve(name));
    Path config = dir.resolve("sidecar.yaml");
    Files.writeString(config, render(1, replicas.size(), mcp, admin));
    long started = System.nanoTime();
    LocalProcess process =
        LocalProcess.java(
            name,
            logs,
            List.of(
                "@" + root.resolve("sidecar/src/main/jvm/jvm.options"),
                "-jar",
                jar("sidecar", "toolgate-sidecar.jar").toString(),
                "--config",
                config.toString(),
                "--config-keys",
                configKeys.toString()),
            SidecarImage.environment(root));
    processes.add(process);
    await(name + " is ready")
        .atMost(Duration.ofSeconds(60))
        .until(() -> Http.ok("http://127.0.0.1:" + admin + "/readyz") || !process.alive());
    if (!process.alive()) {
      throw new IllegalStateException(name + " exited: " + Files.readString(process.stderr()));
    }
    replicas.add(
        new Replica(
            new Endpoint(name, mcp, admin),
            config,
            process,
            (System.nanoTime() - started) / 1_000_000));
  }

  /**
   * Makes revision N the active configuration of every replica, the way the kubelet updates a
   * mounted ConfigMap (an atomic swap of the file), and waits until each replica reports it.
   */
  @Override
  public void activate(long revision) throws Exception {
    for (int i = 0; i < replicas.size(); i++) {
      Replica replica = replicas.get(i);
      Path next = replica.config().resolveSibling("sidecar.yaml.next");
      Files.writeString(
          next, render(revision, i, replica.endpoint().mcpPort(), replica.endpoint().adminPort()));
      Files.move(
          next,
          replica.config(),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    }
    highestActivated = Math.max(highestActivated, revision);
    for (Replica replica : replicas) {
      await(replica.name() + " applies revision " + revision)
          .atMost(Duration.ofSeconds(15))
          .until(() -> activeRevision(replica.endpoint()) == revision);
    }
  }

  @Override
  public long activeRevision(Endpoint replica) throws Exception {
    return JSON.readTree(Http.get(replica.admin("/config")).body()).path("revision").asLong(-1);
  }

  @Override
  public List<Endpoint> replicas() {
    return replicas.stream().map(Replica::endpoint).toList();
  }

  @Override
  public boolean notifies() {
    return true;
  }

  @Override
  public boolean completeScrape() {
    return true;
  }

  @Override
  public Map<String, Object> facts() {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("target", "local processes on 127.0.0.1 (e2e/local)");
    facts.put(
        "processes",
        "two state members (HTTPS :"
            + state.apiPort(0)
            + ", :"
            + state.apiPort(1)
            + "; TokenReview by fabric8's mock API server), demo backend :"
            + backendPort
            + ", sidecars "
            + replicas.stream()
                .map(
                    r ->
                        r.name()
                            + " :"
                            + r.endpoint().mcpPort()
                            + " (admin :"
                            + r.endpoint().adminPort()
                            + ")")
                .toList());
    facts.put(
        "sidecar configuration",
        "toolgate-operator render of "
            + root.relativize(revisions.get(1L))
            + " (seed 000's ToolPolicy, compressed: "
            + COMPRESSION
            + ")");
    replicas.forEach(
        r ->
            facts.put(
                r.name() + " ready after",
                r.readyMillis()
                    + " ms (process start to /readyz 200, state service client, the image's JVM options and environment, no class-data archive)"));
    replicas.forEach(
        r ->
            facts.put(
                r.name() + " resident memory now", Math.round(r.process().residentMib()) + " MiB"));
    return facts;
  }

  @Override
  public String approve(String tool, String argumentsJson) throws Exception {
    return LocalProcess.runJava(
            logs,
            "approve",
            List.of(
                "-jar",
                jar("sidecar", "toolgate-sidecar.jar").toString(),
                "approve",
                "--key-file",
                approvalKey.toString(),
                "--tool",
                tool,
                "--arguments",
                argumentsJson,
                "--approver",
                "e2e-operator"))
        .strip();
  }

  @Override
  public List<JsonNode> events() throws IOException {
    List<JsonNode> events = new ArrayList<>();
    for (Replica replica : replicas) {
      for (String line : Files.readAllLines(replica.process().stdout())) {
        if (line.startsWith("{")) {
          ObjectNode event = (ObjectNode) JSON.readTree(line);
          event.put("replica", replica.name());
          events.add(event);
        }
      }
    }
    return events;
  }

  @Override
  public void close() {
    for (int i = processes.size() - 1; i >= 0; i--) {
      processes.get(i).close();
    }
    if (state != null) {
      state.close();
    }
  }
}
