package dev.toolgate.policy.config;

/**
 * A host and port to bind.
 *
 * @param host the address; loopback by default, so nothing outside the pod reaches the sidecar
 * @param port the port; 0 picks a free one
 */
public record ListenAddress(String host, Integer port) {
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PROXY_PORT = 15000;
  public static final int DEFAULT_ADMIN_PORT = 15020;

  public ListenAddress {
    host = host == null ? DEFAULT_HOST : host;
  }

  public ListenAddress withDefaultPort(int port) {
    return this.port == null ? new ListenAddress(host, port) : this;
  }
}
