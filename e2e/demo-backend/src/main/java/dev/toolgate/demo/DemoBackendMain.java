package dev.toolgate.demo;

import io.vertx.core.Vertx;

/** Runs the demo backend until the process is stopped. */
public final class DemoBackendMain {

  private static final String USAGE =
      """
      Usage: java -jar toolgate-demo-backend.jar [--host HOST] [--port PORT]

      An MCP server (Streamable HTTP) that plays a deployment API for Toolgate's demo and tests.
        --host HOST   address to bind (default %s)
        --port PORT   port to bind, 0 for any free port (default %d)
        --help        print this help
      Fault injection: POST /faults/<tool> {"kind":"status","status":503,"times":2}
      """
          .formatted(DemoBackendOptions.DEFAULT_HOST, DemoBackendOptions.DEFAULT_PORT);

  private DemoBackendMain() {}

  public static void main(String[] args) {
    String host = DemoBackendOptions.DEFAULT_HOST;
    int port = DemoBackendOptions.DEFAULT_PORT;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--help", "-h" -> {
          System.out.print(USAGE);
          return;
        }
        case "--host" -> host = value(args, ++i, "--host");
        case "--port" -> {
          String v = value(args, ++i, "--port");
          try {
            port = Integer.parseInt(v);
          } catch (NumberFormatException e) {
            fail("--port takes a number, was '" + v + "'");
          }
        }
        default -> fail("unknown argument '" + args[i] + "'");
      }
    }
    Vertx vertx = Vertx.vertx(DemoBackend.vertxOptions());
    DemoBackend.start(vertx, new DemoBackendOptions(host, port))
        .onSuccess(
            b ->
                System.out.println(
                    "demo backend listening on "
                        + b.mcpUrl()
                        + (vertx.isNativeTransportEnabled() ? " (epoll)" : " (NIO)")))
        .onFailure(
            e -> {
              System.err.println("demo backend failed to start: " + e.getMessage());
              vertx.close();
              System.exit(1);
            });
  }

  private static String value(String[] args, int i, String flag) {
    if (i >= args.length) {
      fail(flag + " needs a value");
    }
    return args[i];
  }

  private static void fail(String message) {
    System.err.println("error: " + message + "\n\n" + USAGE);
    System.exit(2);
  }
}
