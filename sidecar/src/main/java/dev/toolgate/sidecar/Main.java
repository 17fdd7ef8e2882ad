package dev.toolgate.sidecar;

import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.sidecar.approval.ApproveCommand;
import dev.toolgate.sidecar.config.ConfigException;
import dev.toolgate.sidecar.config.ConfigLoader;
import dev.toolgate.sidecar.config.LoadedConfig;
import dev.toolgate.sidecar.state.hazelcast.TrainingMember;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** {@code java -jar toolgate-sidecar.jar --config <file>}. */
public final class Main {

  private static final String USAGE =
      """
      Usage: java -jar sidecar/target/toolgate-sidecar.jar --config FILE [--check]
             java -jar sidecar/target/toolgate-sidecar.jar approve --help
             java -jar sidecar/target/toolgate-sidecar.jar quota --help

      Toolgate sidecar: an MCP proxy that enforces a resilience policy on every tools/call.
        --config FILE   the sidecar configuration (YAML); reloaded when it changes
        --check         validate FILE, print the result and exit (0 valid, 2 invalid)
        --exit-when-ready
                        start, ask its own /readyz, let the warm-up end, shut down and exit 0
                        if /readyz answered 200: a smoke test, and the training run that
                        records the image's class-data sharing archives
        --start-member  with --exit-when-ready and sharedState.mode client: first start a
                        throwaway Hazelcast member in a child JVM at the first member address,
                        stopped at exit (the image's client-mode training run: its archive
                        then holds the client's classes, not the member's)
        --version       print the version and exit
        --help          print this help and exit

      Agents reach each upstream at http://<listen.host>:<listen.port>/mcp/<upstream name>.
      Attempt events are written to stdout, one JSON line each; logs go to stderr.
      """;

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  static int run(String[] args) {
    if (args.length > 0 && args[0].equals("approve")) {
      return ApproveCommand.run(args, System.out, System.err, Clock.systemUTC());
    }
    if (args.length > 0 && args[0].equals("quota")) {
      return dev.toolgate.sidecar.admin.QuotaCommand.run(args, System.out, System.err);
    }
    Path config = null;
    boolean check = false;
    boolean exitWhenReady = false;
    boolean startMember = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--help", "-h" -> {
          System.out.print(USAGE);
          return 0;
        }
        case "--version" -> {
          String v = Main.class.getPackage().getImplementationVersion();
          System.out.println("toolgate-sidecar " + (v == null ? "dev" : v));
          return 0;
        }
        case "--check" -> check = true;
        case "--exit-when-ready" -> exitWhenReady = true;
        case "--start-member" -> startMember = true;
        case "--config" -> {
          if (i + 1 >= args.length) {
            return usageError("--config needs a file");
          }
          config = Path.of(args[++i]);
        }
        default -> {
          return usageError("unknown argument '" + args[i] + "'");
        }
      }
    }
    if (config == null) {
      return usageError("--config is required");
    }
    if (startMember && !exitWhenReady) {
      return usageError(
          "--start-member goes with --exit-when-ready: the member lives for that run only");
    }
    if (!Files.isReadable(config)) {
      System.err.println("error: cannot read the configuration file " + config);
      return 2;
    }
    LoadedConfig loaded;
    try {
      loaded = new ConfigLoader(Clock.systemUTC()).load(config);
    } catch (ConfigException e) {
      System.err.println("error: invalid configuration " + e.getMessage());
      return 2;
    }
    if (check) {
      System.out.println(
          "valid: "
              + config
              + " (revision "
              + loaded.config().revision()
              + ", sha256 "
              + loaded.hash()
              + ")");
      return 0;
    }
    if (!startMember) {
      return serve(config, exitWhenReady);
    }
    SharedStateOptions shared = loaded.config().sharedState();
    if (shared.mode() != SharedStateOptions.Mode.CLIENT || shared.members().isEmpty()) {
      return usageError(
          "--start-member needs sharedState.mode client with members, was "
              + shared.mode().name().toLowerCase(Locale.ROOT)
              + " with "
              + shared.members().size()
              + " members");
    }
    try (TrainingMember member =
        TrainingMember.start(
            shared.members().get(0), shared.clusterName(), Duration.ofSeconds(60))) {
      return serve(config, true);
    } catch (IOException e) {
      System.err.println("error: " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  private static int serve(Path config, boolean exitWhenReady) {
    System.setProperty(
        "vertx.logger-delegate-factory-class-name",
        "io.vertx.core.logging.SLF4JLogDelegateFactory");
    Vertx vertx = Vertx.vertx(Sidecar.vertxOptions());
    try {
      Sidecar sidecar = Sidecar.start(vertx, SidecarOptions.of(config)).await(30, TimeUnit.SECONDS);
      if (exitWhenReady) {
        int status = probeReadiness(vertx, sidecar).await(10, TimeUnit.SECONDS);
        // The image's training run thereby also archives the classes of the call path.
        sidecar.warmedUp().await(60, TimeUnit.SECONDS);
        sidecar.close().compose(v -> vertx.close()).await(10, TimeUnit.SECONDS);
        if (status != 200) {
          System.err.println("error: the sidecar started but /readyz answered " + status);
          return 1;
        }
        System.err.println(
            "toolgate sidecar: ready (/readyz 200); exiting as asked (--exit-when-ready)");
        return 0;
      }
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      sidecar.close().compose(v -> vertx.close()).await(10, TimeUnit.SECONDS);
                    } catch (Exception e) {
                      System.err.println("shutdown: " + e);
                    }
                  },
                  "toolgate-shutdown"));
      System.err.println(
          "toolgate sidecar: MCP clients connect to "
              + sidecar.mcpUrl("<upstream>")
              + " ; admin on port "
              + sidecar.adminPort());
      Thread.currentThread().join();
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    } catch (Exception e) {
      System.err.println("error: the sidecar failed to start: " + e.getMessage());
      vertx.close();
      return 1;
    }
  }

  /**
   * Asks the admin listener's /readyz over HTTP, as a kubelet would: the smoke test then covers the
   * request path, and the image's training run also archives the classes that answer it.
   */
  private static Future<Integer> probeReadiness(Vertx vertx, Sidecar sidecar) {
    HttpClient client = vertx.createHttpClient();
    return client
        .request(
            HttpMethod.GET,
            sidecar.adminPort(),
            sidecar.activeConfig().config().admin().host(),
            "/readyz")
        .compose(HttpClientRequest::send)
        .compose(response -> response.body().map(body -> response.statusCode()))
        .eventually(client::close);
  }

  private static int usageError(String message) {
    System.err.println("error: " + message + "\n\n" + USAGE);
    return 2;
  }
}
