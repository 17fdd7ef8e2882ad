package dev.toolgate.state;

/**
 * Who a request comes from, as its credential proves it (never as the request says).
 *
 * @param namespace the caller's namespace: every key it reaches is scoped by it; null for the
 *     publisher
 * @param workload what the credential names within the namespace (a ServiceAccount, or a static
 *     token's workload), for the log
 * @param publisher whether this is the operator, the only caller that publishes configurations
 */
public record Caller(String namespace, String workload, boolean publisher) {

  public static Caller sidecar(String namespace, String workload) {
    if (namespace == null || namespace.isBlank()) {
      throw new IllegalArgumentException("a sidecar's credential must name its namespace");
    }
    return new Caller(namespace, workload, false);
  }

  public static Caller publisher(String name) {
    return new Caller(null, name, true);
  }

  @Override
  public String toString() {
    return publisher ? "publisher " + workload : namespace + "/" + workload;
  }
}
