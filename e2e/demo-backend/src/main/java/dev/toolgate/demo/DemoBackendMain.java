package dev.toolgate.demo;

import io.vertx.core.Vertx;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the demo backend until the process is stopped. */
@Command(
    name = "toolgate-demo-backend",
    description =
        "An MCP server (Streamable HTTP) that plays a deployment API for Toolgate's demo and tests.",
    footer = {
      "",
      "Fault injection: POST /faults/<tool> {\"kind\":\"status\",\"status\":503,\"times\":2}"
    })
public final class DemoBackendMain implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  boolean help;

  @Option(
      names = "--host",
      paramLabel = "HOST",
      defaultValue = DemoBackendOptions.DEFAULT_HOST,
      description = "Address to bind (default ${DEFAULT-VALUE}).")
  String host;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      defaultValue = "" + DemoBackendOptions.DEFAULT_PORT,
      description = "Port to bind, 0 for any free port (default ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--require-bearer-file",
      paramLabel = "FILE",
      description =
          "Refuse MCP requests (401) unless they carry Authorization: Bearer <the file's"
              + " content>: only a caller holding the credential gets in.")
  java.nio.file.Path requireBearerFile;

  public static void main(String[] args) {
    int code = new CommandLine(new DemoBackendMain()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** Starts the backend and returns: its event loops keep the process alive. */
  @Override
  public Integer call() throws java.io.IOException {
    String token =
        requireBearerFile == null
            ? null
            : java.nio.file.Files.readString(requireBearerFile).strip();
    if (token != null && token.isEmpty()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--require-bearer-file " + requireBearerFile + " is empty");
    }
    Vertx vertx = Vertx.vertx(DemoBackend.vertxOptions());
    DemoBackend.start(vertx, new DemoBackendOptions(host, port, token))
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
    return 0;
  }
}
