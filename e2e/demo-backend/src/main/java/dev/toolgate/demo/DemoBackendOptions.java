package dev.toolgate.demo;

/**
 * Where the demo backend listens, and what it asks of its callers.
 *
 * @param host the address to bind; loopback unless told otherwise
 * @param port the port; 0 picks a free one
 * @param requiredBearerToken a token every MCP request must carry as {@code Authorization: Bearer
 *     <token>} (401 otherwise), as a server that lets only the sidecar in does; null: none
 */
public record DemoBackendOptions(String host, int port, String requiredBearerToken) {

  public DemoBackendOptions(String host, int port) {
    this(host, port, null);
  }

  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 18080;

  /** Requests larger than this are refused with 413. */
  public static final int MAX_BODY_BYTES = 8 << 20;

  public static DemoBackendOptions defaults() {
    return new DemoBackendOptions(DEFAULT_HOST, DEFAULT_PORT);
  }

  /** Loopback on a free port: what tests use. */
  public static DemoBackendOptions ephemeral() {
    return new DemoBackendOptions(DEFAULT_HOST, 0);
  }
}
