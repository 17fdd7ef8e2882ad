package dev.toolgate.sidecar;

import dev.toolgate.sidecar.config.LoadedConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * A running Toolgate sidecar: the MCP proxy on its listen address, the admin listener, and the
 * configuration watcher. Start fails, with a message naming each bad field, when the
 * configuration is invalid.
 */
public interface Sidecar {

  static Future<Sidecar> start(Vertx vertx, SidecarOptions options) {
    return SidecarImpl.start(vertx, options);
  }

  int proxyPort();

  int adminPort();

  /** The URL an MCP client uses for an upstream, e.g. {@code http://127.0.0.1:15000/mcp/api}. */
  String mcpUrl(String upstream);

  /** The configuration in force. */
  LoadedConfig activeConfig();

  /** Completes when the warm-up started at ready has ended (done, stopped or failed); at once when it is off. */
  Future<Void> warmedUp();

  Future<Void> close();
}
