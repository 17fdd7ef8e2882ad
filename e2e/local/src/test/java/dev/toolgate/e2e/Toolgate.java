package dev.toolgate.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What the seed cases drive: two sidecar replicas in front of the demo backend, a policy that can
 * change revision, and the evidence the sidecars write. {@link LocalStack} runs it as processes on
 * loopback (CI); {@link KindStack} reaches a kind cluster set up by e2e/kind/run.
 */
interface Toolgate extends AutoCloseable {

  /** A sidecar replica as the suite reaches it (loopback ports; port-forwards on kind). */
  record Endpoint(String name, int mcpPort, int adminPort) {
    String admin(String path) {
      return "http://127.0.0.1:" + adminPort + path;
    }
  }

  static Toolgate start(java.nio.file.Path root) throws Exception {
    return "kind".equals(System.getProperty("toolgate.e2e.target", "local"))
        ? KindStack.connect(root)
        : LocalStack.start(root);
  }

  List<Endpoint> replicas();

  /** The demo backend's URL for a path (its fault API and ledger). */
  String backend(String path);

  /** {@code toolgate-sidecar approve}: a human's approval of one call. */
  String approve(String tool, String argumentsJson) throws Exception;

  /**
   * Prepares revision N: seed 000's policy, compressed, with {@code change} applied to its spec.
   */
  void writeRevision(long revision, Consumer<ObjectNode> change) throws Exception;

  /**
   * Makes revision N active on every replica (a rollback when N was active before) and waits for
   * it.
   */
  void activate(long revision) throws Exception;

  long activeRevision(Endpoint replica) throws Exception;

  /**
   * Every JSON line the replicas wrote so far (attempt events and audit records), each with its
   * replica.
   */
  List<JsonNode> events() throws Exception;

  /**
   * Whether a write-quota block notifies a webhook here (local: a closed port, counted as failed).
   */
  boolean notifies();

  /**
   * The {@code Authorization} the sidecars send the backend from their {@code upstreams[].auth},
   * which the backend requires; null where the target's backend requires none.
   */
  default String upstreamCredential() {
    return null;
  }

  /** Whether this target's scrape can show every metric the dashboards query. */
  boolean completeScrape();

  /** What the report says about the target: processes, configuration, start-up, memory. */
  Map<String, Object> facts();

  @Override
  void close();

  default JsonNode ledger() throws Exception {
    return LocalStack.JSON.readTree(Http.get(backend("/ledger")).body());
  }

  default long callsReceived(String tool) throws Exception {
    return ledger().path("callsReceived").path(tool).asLong(0);
  }

  default long operationsPerformed(String tool) throws Exception {
    return ledger().path("operationsPerformed").path(tool).asLong(0);
  }

  default void fault(String tool, String json) throws Exception {
    int status = Http.post(backend("/faults/" + tool), json).statusCode();
    if (status / 100 != 2) {
      throw new IllegalStateException(
          "the backend refused the fault " + json + " (" + status + ")");
    }
  }

  /** How the backend answers {@code tool}: {@code json} or {@code sse}. */
  default void answerFormat(String tool, String format) throws Exception {
    int status =
        Http.post(backend("/answers/" + tool), "{\"format\":\"" + format + "\"}").statusCode();
    if (status / 100 != 2) {
      throw new IllegalStateException("the backend refused the answer format " + format);
    }
  }

  default void latency(String tool, long millis) throws Exception {
    Http.post(backend("/latency/" + tool), "{\"ms\":" + millis + "}");
  }

  default void clearFaults() throws Exception {
    Http.delete(backend("/faults"));
  }
}
