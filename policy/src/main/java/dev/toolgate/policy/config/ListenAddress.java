package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * A host and port to bind; for the MCP listener, also whom it answers (DNS rebinding: the MCP
 * specification asks servers to validate {@code Origin}).
 */
public record ListenAddress(
    @JsonPropertyDescription(
            "The address; loopback by default, so nothing outside the pod reaches the "
                + "sidecar.")
        String host,
    @JsonPropertyDescription("The port; 0 picks a free one.") Integer port,
    @JsonPropertyDescription(
            "Origins (scheme://host[:port]) whose requests the MCP listener serves; a request"
                + " with another Origin gets 403. Empty (the default): only requests without"
                + " Origin, as agents' HTTP clients send them.")
        java.util.List<String> allowedOrigins,
    @JsonPropertyDescription(
            "Host header values (a name, with or without a port) the MCP listener serves besides"
                + " loopback (localhost, 127.0.0.1, [::1]) and its own address; another gets 403.")
        java.util.List<String> allowedHosts) {

  public ListenAddress(String host, Integer port) {
    this(host, port, null, null);
  }

  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PROXY_PORT = 17000;
  public static final int DEFAULT_ADMIN_PORT = 17020;

  public ListenAddress {
    host = host == null ? DEFAULT_HOST : host;
    allowedOrigins =
        allowedOrigins == null ? java.util.List.of() : java.util.List.copyOf(allowedOrigins);
    allowedHosts = allowedHosts == null ? java.util.List.of() : java.util.List.copyOf(allowedHosts);
  }

  public ListenAddress withDefaultPort(int port) {
    return this.port == null ? new ListenAddress(host, port, allowedOrigins, allowedHosts) : this;
  }
}
