package dev.toolgate.policy.config;

/**
 * The admin listener.
 *
 * @param host the address; loopback by default
 * @param port the port; 0 picks a free one
 * @param tokenFile a file holding the bearer token that state-changing admin calls must present;
 *     relative to the configuration file; without it those calls are refused
 */
public record AdminOptions(String host, Integer port, String tokenFile) {

  public AdminOptions {
    host = host == null ? ListenAddress.DEFAULT_HOST : host;
    port = port == null ? ListenAddress.DEFAULT_ADMIN_PORT : port;
  }

  public ListenAddress address() {
    return new ListenAddress(host, port);
  }
}
