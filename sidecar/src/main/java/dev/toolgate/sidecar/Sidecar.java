package dev.toolgate.sidecar;

import dev.toolgate.sidecar.config.LoadedConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;

/**
 * A running Toolgate sidecar: the MCP proxy on its listen address, the admin listener, and the
 * configuration watcher. Start fails, with a message naming each bad field, when the configuration
 * is invalid.
 */
public interface Sidecar {

  /** Worker threads run the shared state's blocking calls, one per busy session at a time. */
  int DEFAULT_WORKER_THREADS = 8;

  /** The internal pool only reads files (the configuration's poll, token files). */
  int DEFAULT_INTERNAL_BLOCKING_THREADS = 2;

  /**
   * The Vert.x options a sidecar is meant to run on (its {@code main}, and the tests). The JDK's
   * NIO selector: Netty's native transports were measured and not taken (docs/decisions). Eight
   * workers are plenty next to one agent (the quota store combines a session's calls) and each
   * costs a stack; the internal pool's default of 20 threads all came to exist, one per
   * configuration poll, since a pool adds a thread per task until full. No class-path file
   * resolving: the sidecar reads its files by path and serves none, and without it Vert.x creates
   * no {@code vertx-cache-*} directory, which a killed process leaves behind.
   */
  static VertxOptions vertxOptions() {
    return new VertxOptions()
        .setPreferNativeTransport(false)
        .setWorkerPoolSize(DEFAULT_WORKER_THREADS)
        .setInternalBlockingPoolSize(DEFAULT_INTERNAL_BLOCKING_THREADS)
        .setFileSystemOptions(new FileSystemOptions().setClassPathResolvingEnabled(false));
  }

  static Future<Sidecar> start(Vertx vertx, SidecarOptions options) {
    return SidecarImpl.start(vertx, options);
  }

  int proxyPort();

  int adminPort();

  /** The URL an MCP client uses for an upstream, e.g. {@code http://127.0.0.1:17000/mcp/api}. */
  String mcpUrl(String upstream);

  /** The configuration in force. */
  LoadedConfig activeConfig();

  /**
   * Completes when the warm-up started at ready has ended (done, stopped or failed); at once when
   * it is off.
   */
  Future<Void> warmedUp();

  Future<Void> close();
}
