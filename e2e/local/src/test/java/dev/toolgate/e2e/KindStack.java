package dev.toolgate.e2e;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolgate.e2e.support.LocalProcess;
import dev.toolgate.e2e.support.LoopbackPorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The seed cases against a kind cluster prepared by e2e/kind/run (chart installed, demo backend
 * deployed, namespace labelled, approval Secret created). Here the operator does the work the local
 * target imitates: the suite applies the ToolPolicy revisions with kubectl, rolls back with the
 * {@code toolgate.dev/rollback-to} annotation, and the sidecars receive each revision through the
 * state service. Sidecars and backend are reached through {@code kubectl port-forward}.
 */
final class KindStack implements Toolgate {

  static final String NAMESPACE = System.getProperty("toolgate.e2e.namespace", "ops");
  static final String POLICY = "deployment-tools";

  private final Path root;
  private final Path work;
  private final Path approvalKey;
  private final List<Process> forwards = new ArrayList<>();
  private final List<Endpoint> replicas = new ArrayList<>();
  private final List<String> pods = new ArrayList<>();
  private final Map<Long, Path> revisions = new LinkedHashMap<>();
  private long applied;
  private int backendPort;

  private KindStack(Path root) throws IOException {
    this.root = root;
    this.work = Files.createDirectories(root.resolve("e2e/local/target/e2e-kind"));
    String key = System.getProperty("toolgate.e2e.approvalKey");
    if (key == null || !Files.isReadable(Path.of(key))) {
      throw new IllegalStateException(
          "-Dtoolgate.e2e.approvalKey must name the key e2e/kind/run put in the Secret");
    }
    this.approvalKey = Path.of(key);
  }

  static KindStack connect(Path root) throws Exception {
    KindStack stack = new KindStack(root);
    try {
      stack.writeRevision(1, spec -> {});
      stack.kubectl("apply", "-f", stack.revisions.get(1L).toString());
      stack.applied = 1;
      await("the operator renders revision 1")
          .atMost(Duration.ofSeconds(120))
          .ignoreExceptions()
          .until(
              () ->
                  stack
                      .kubectl("get", "configmap", "toolgate-" + POLICY, "-o", "name")
                      .contains(POLICY));
      stack.kubectl("apply", "-f", root.resolve("e2e/kind/manifests/agent.yaml").toString());
      stack.kubectl("rollout", "status", "deployment/agent", "--timeout=180s");
      stack.pods.addAll(
          Arrays.asList(
              stack
                  .kubectl(
                      "get",
                      "pods",
                      "-l",
                      "app=agent",
                      "--field-selector=status.phase=Running",
                      "-o",
                      "jsonpath={.items[*].metadata.name}")
                  .strip()
                  .split("\\s+")));
      if (stack.pods.size() < 2) {
        throw new IllegalStateException("expected two agent pods, found " + stack.pods);
      }
      for (String pod : stack.pods.subList(0, 2)) {
        int mcp = LoopbackPorts.next();
        int admin = LoopbackPorts.next();
        stack.forward("pod/" + pod, mcp + ":17000", admin + ":17020");
        Endpoint endpoint = new Endpoint(pod, mcp, admin);
        await(pod + "'s sidecar is ready")
            .atMost(Duration.ofSeconds(60))
            .until(() -> Http.ok(endpoint.admin("/readyz")));
        stack.replicas.add(endpoint);
      }
      stack.backendPort = LoopbackPorts.next();
      stack.forward("service/deployment-mcp", stack.backendPort + ":8080");
      await("the demo backend answers")
          .atMost(Duration.ofSeconds(60))
          .until(() -> Http.ok(stack.backend("/ledger")));
      return stack;
    } catch (Exception | AssertionError e) {
      stack.close();
      throw e;
    }
  }

  private void forward(String target, String... ports) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of("kubectl", "-n", NAMESPACE, "port-forward", "--address", "127.0.0.1", target));
    command.addAll(List.of(ports));
    forwards.add(
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("port-forward-" + forwards.size() + ".log").toFile())
            .start());
  }

  String kubectl(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("kubectl", "-n", NAMESPACE));
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(200, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
    }
    return output;
  }

  @Override
  public List<Endpoint> replicas() {
    return replicas;
  }

  @Override
  public String backend(String path) {
    return "http://127.0.0.1:" + backendPort + path;
  }

  @Override
  public String approve(String tool, String argumentsJson) throws Exception {
    Path jar = root.resolve("sidecar/target/toolgate-sidecar.jar");
    return LocalProcess.runJava(
            work,
            "approve",
            List.of(
                "-jar",
                jar.toString(),
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
  public void writeRevision(long revision, Consumer<ObjectNode> change) throws Exception {
    ObjectNode doc = LocalStack.compressedPolicy(root);
    ((ObjectNode) doc.get("metadata")).put("namespace", NAMESPACE);
    change.accept((ObjectNode) doc.get("spec"));
    Path file = work.resolve("toolpolicy-r" + revision + ".yaml");
    LocalStack.YAML.writeValue(file.toFile(), doc);
    revisions.put(revision, file);
  }

  @Override
  public void activate(long revision) throws Exception {
    if (revision > applied) {
      // A new spec: the operator renders it as the next revision (once no rollback pins an older
      // one).
      kubectl("annotate", "toolpolicy", POLICY, "toolgate.dev/rollback-to-");
      kubectl("apply", "-f", revisions.get(revision).toString());
      applied = revision;
    } else {
      kubectl(
          "annotate", "--overwrite", "toolpolicy", POLICY, "toolgate.dev/rollback-to=" + revision);
    }
    for (Endpoint replica : replicas) {
      await(replica.name() + " applies revision " + revision)
          .atMost(Duration.ofSeconds(120))
          .ignoreExceptions()
          .until(() -> activeRevision(replica) == revision);
    }
  }

  @Override
  public long activeRevision(Endpoint replica) throws Exception {
    return LocalStack.JSON
        .readTree(Http.get(replica.admin("/config")).body())
        .path("revision")
        .asLong(-1);
  }

  @Override
  public List<JsonNode> events() throws Exception {
    List<JsonNode> events = new ArrayList<>();
    for (Endpoint replica : replicas) {
      for (String line :
          kubectl("logs", "pod/" + replica.name(), "-c", "toolgate-sidecar").split("\n")) {
        if (line.startsWith("{")) {
          ObjectNode event = (ObjectNode) LocalStack.JSON.readTree(line);
          event.put("replica", replica.name());
          events.add(event);
        }
      }
    }
    return events;
  }

  @Override
  public boolean notifies() {
    return false;
  }

  @Override
  public boolean completeScrape() {
    return false;
  }

  @Override
  public Map<String, Object> facts() {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("target", "kind cluster, namespace " + NAMESPACE + " (e2e/kind/run)");
    facts.put("agent pods", pods);
    facts.put(
        "policy",
        "seed 000's ToolPolicy, compressed: "
            + LocalStack.COMPRESSION.entrySet().stream()
                .filter(
                    e ->
                        !e.getKey().equals("quotas.notify") && !e.getKey().equals("upstreams.auth"))
                .toList()
            + "; revisions applied with kubectl");
    return facts;
  }

  @Override
  public void close() {
    forwards.forEach(Process::destroy);
  }
}
