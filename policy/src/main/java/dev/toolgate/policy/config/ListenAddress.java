package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** A host and port to bind. */
public record ListenAddress(
    @JsonPropertyDescription(
            "The address; loopback by default, so nothing outside the pod reaches the "
                + "sidecar.")
        String host,
    @JsonPropertyDescription("The port; 0 picks a free one.") Integer port) {
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
