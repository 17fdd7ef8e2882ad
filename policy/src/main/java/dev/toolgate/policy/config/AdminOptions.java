package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The admin listener. */
public record AdminOptions(
    @JsonPropertyDescription("The address; loopback by default.") String host,
    @JsonPropertyDescription("The port; 0 picks a free one.") Integer port,
    @JsonPropertyDescription(
            "A file holding the bearer token that state-changing admin calls must present; "
                + "relative to the configuration file; without it those calls are refused.")
        String tokenFile) {

  public AdminOptions {
    host = host == null ? ListenAddress.DEFAULT_HOST : host;
    port = port == null ? ListenAddress.DEFAULT_ADMIN_PORT : port;
  }

  public ListenAddress address() {
    return new ListenAddress(host, port);
  }
}
