package dev.toolgate.demo;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;

/**
 * A real MCP server (Streamable HTTP, protocol versions 2025-03-26 to 2026-07-28) that plays seed
 * 000's deployment API, injects faults on demand and counts what it really did.
 *
 * <p>Besides {@code /mcp} it serves a small control API for out-of-process tests: {@code POST
 * /faults/<tool>} with a {@link Fault} as JSON, {@code POST /latency/<tool>} with {@code {"ms":n}},
 * {@code DELETE /faults}, and {@code GET /ledger}.
 */
public interface DemoBackend {

  /**
   * The options its {@code main} runs Vert.x on: no class-path file resolving (it serves no file),
   * so no {@code vertx-cache-*} directory, which a killed backend leaves behind; and the native
   * transport where it loads (Linux x86-64; NIO elsewhere), whose timers wake when due: on NIO a
   * latency's timer costs the loop a poll that does not sleep through its last half millisecond,
   * which a benchmark would charge to whatever calls the backend least often.
   */
  static VertxOptions vertxOptions() {
    return new VertxOptions()
        .setPreferNativeTransport(true)
        .setFileSystemOptions(new FileSystemOptions().setClassPathResolvingEnabled(false));
  }

  static Future<DemoBackend> start(Vertx vertx, DemoBackendOptions options) {
    return DemoServer.start(vertx, options);
  }

  int port();

  /** The MCP endpoint, e.g. {@code http://127.0.0.1:18080/mcp}. */
  String mcpUrl();

  Faults faults();

  Ledger ledger();

  Future<Void> close();
}
