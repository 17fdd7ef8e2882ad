package dev.toolgate.sidecar;

import dev.toolgate.policy.config.RuntimeOptions;
import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.policy.validation.Redacted;
import dev.toolgate.sidecar.admin.QuotaCommand;
import dev.toolgate.sidecar.approval.ApproveCommand;
import dev.toolgate.sidecar.config.ConfigException;
import dev.toolgate.sidecar.config.ConfigLoader;
import dev.toolgate.sidecar.config.ConfigTrust;
import dev.toolgate.sidecar.config.LoadedConfig;
import dev.toolgate.sidecar.state.hazelcast.TrainingMember;
import dev.toolgate.trust.TrustedKeys;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code toolgate-sidecar --config FILE}: serves, checks a file, or runs the image's training. */
@Command(
    name = "toolgate-sidecar",
    mixinStandardHelpOptions = true,
    versionProvider = SidecarCommand.Version.class,
    description = "An MCP proxy that enforces a resilience policy on every tools/call.",
    subcommands = {ApproveCommand.class, QuotaCommand.class},
    footer = {
      "",
      "Agents reach each upstream at http://<listen.host>:<listen.port>/mcp/<upstream name>.",
      "Attempt events are written to stdout, one JSON line each; logs go to stderr.",
      "TOOLGATE_AGENT_ID, when set (the injector sets it from the pod's owner), replaces agent.id."
    })
final class SidecarCommand implements Callable<Integer> {

  /** The environment variable holding the configuration keys (a JWK set) in a pod. */
  static final String CONFIG_KEYS_ENV = "TOOLGATE_CONFIG_KEYS";

  /** The environment variable naming the workload this sidecar serves (set by the injector). */
  static final String AGENT_ID_ENV = "TOOLGATE_AGENT_ID";

  /** The width of every usage text. */
  static final int USAGE_WIDTH = 100;

  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "The sidecar configuration (YAML); reloaded when it changes.")
  Path config;

  @Option(
      names = "--config-keys",
      paramLabel = "FILE",
      description = {
        "The operator's public keys (a JWK set of Ed25519 keys) that every configuration must be"
            + " signed with, from the file and from the shared state. Without it, the JWK set in"
            + " the environment variable "
            + CONFIG_KEYS_ENV
            + " (what the injector sets)."
      })
  Path configKeys;

  @Option(
      names = "--allow-unsigned-config",
      description = {
        "Accept an unsigned configuration file (one machine only: a publication from the shared"
            + " state must be signed whatever this says)."
      })
  boolean allowUnsignedConfig;

  @Option(
      names = "--warmup-calls",
      paramLabel = "N",
      description = {
        "Calls of the warm-up, 0 (off) to "
            + RuntimeOptions.MAX_WARMUP_CALLS
            + ", in place of the configuration's runtime.warmupCalls (the injector sets it from a"
            + " pod's toolgate.dev/sidecar-warmup-calls annotation)."
      })
  Integer warmupCalls;

  @Option(
      names = "--check",
      description = "Validate FILE, print the result and exit (0 valid, 2 invalid).")
  boolean check;

  @Option(
      names = "--exit-when-ready",
      description = {
        "Start, ask its own /readyz, let the warm-up end, shut down and exit 0 if /readyz answered"
            + " 200: a smoke test, and the training run that records the image's class-data"
            + " sharing archives."
      })
  boolean exitWhenReady;

  @Option(
      names = "--start-member",
      description = {
        "With --exit-when-ready and sharedState.mode client: first start a throwaway Hazelcast"
            + " member in a child JVM at the first member address, stopped at exit (the image's"
            + " client-mode training run)."
      })
  boolean startMember;

  private final Clock clock;
  private final Map<String, String> env;

  SidecarCommand(Clock clock, Map<String, String> env) {
    this.clock = clock;
    this.env = env;
  }

  /** The command line of the sidecar's jar, its subcommands included. */
  static CommandLine commandLine(
      Clock clock, Map<String, String> env, PrintWriter out, PrintWriter err) {
    CommandLine line =
        new CommandLine(
            new SidecarCommand(clock, env),
            new CommandLine.IFactory() {
              @Override
              public <K> K create(Class<K> type) throws Exception {
                if (type == ApproveCommand.class) {
                  return type.cast(new ApproveCommand(clock));
                }
                return CommandLine.defaultFactory().create(type);
              }
            });
    return line.setUsageHelpWidth(USAGE_WIDTH).setOut(out).setErr(err);
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (config == null) {
      throw new ParameterException(spec.commandLine(), "--config FILE is required");
    }
    if (startMember && !exitWhenReady) {
      throw new ParameterException(
          spec.commandLine(),
          "--start-member goes with --exit-when-ready: the member lives for that run only");
    }
    if (warmupCalls != null && (warmupCalls < 0 || warmupCalls > RuntimeOptions.MAX_WARMUP_CALLS)) {
      throw new ParameterException(
          spec.commandLine(),
          "--warmup-calls must be 0 to "
              + RuntimeOptions.MAX_WARMUP_CALLS
              + ", was "
              + warmupCalls);
    }
    if (!Files.isReadable(config)) {
      err.println("error: cannot read the configuration file " + config);
      return 2;
    }
    ConfigTrust trust = trust();
    LoadedConfig loaded;
    try {
      loaded = new ConfigLoader(clock, trust).load(config);
    } catch (ConfigException e) {
      err.println(
          "error: "
              + (e.outcome().equals(ConfigException.INVALID) ? "invalid" : "untrusted")
              + " configuration "
              + Redacted.text(e.getMessage()));
      return 2;
    }
    if (check) {
      out.println(
          "valid: "
              + config
              + " (revision "
              + loaded.config().revision()
              + ", sha256 "
              + loaded.hash()
              + ", "
              + loaded.provenance().describe()
              + ")");
      return 0;
    }
    if (!startMember) {
      return serve(trust, err);
    }
    SharedStateOptions shared = loaded.config().sharedState();
    if (shared.mode() != SharedStateOptions.Mode.CLIENT || shared.members().isEmpty()) {
      throw new ParameterException(
          spec.commandLine(),
          "--start-member needs sharedState.mode client with members, was "
              + shared.mode().name().toLowerCase(Locale.ROOT)
              + " with "
              + shared.members().size()
              + " members");
    }
    try (TrainingMember member =
        TrainingMember.start(
            shared.members().get(0), shared.clusterName(), Duration.ofSeconds(60))) {
      return serve(trust, err);
    } catch (IOException e) {
      err.println("error: " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  /** The keys given on the command line or in the environment, or the unsigned file allowed. */
  private ConfigTrust trust() {
    TrustedKeys keys = null;
    String source = null;
    try {
      if (configKeys != null) {
        source = "--config-keys " + configKeys;
        keys = TrustedKeys.parse(Files.readString(configKeys));
      } else if (env.get(CONFIG_KEYS_ENV) != null && !env.get(CONFIG_KEYS_ENV).isBlank()) {
        source = CONFIG_KEYS_ENV;
        keys = TrustedKeys.parse(env.get(CONFIG_KEYS_ENV));
      }
    } catch (IOException | IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), source + ": " + e.getMessage());
    }
    if (keys == null && !allowUnsignedConfig) {
      throw new ParameterException(
          spec.commandLine(),
          "no configuration keys: pass --config-keys FILE (the operator's public keys; in a pod"
              + " the injector sets "
              + CONFIG_KEYS_ENV
              + "), or, on one machine, --allow-unsigned-config");
    }
    return allowUnsignedConfig ? ConfigTrust.unsignedFileAllowed(keys) : ConfigTrust.signedBy(keys);
  }

  private int serve(ConfigTrust trust, PrintWriter err) {
    System.setProperty(
        "vertx.logger-delegate-factory-class-name",
        "io.vertx.core.logging.SLF4JLogDelegateFactory");
    Vertx vertx = Vertx.vertx(Sidecar.vertxOptions());
    try {
      Sidecar sidecar =
          Sidecar.start(
                  vertx,
                  SidecarOptions.of(config, trust)
                      .withAgent(env.get(AGENT_ID_ENV))
                      .withWarmupCalls(warmupCalls))
              .await(30, TimeUnit.SECONDS);
      if (exitWhenReady) {
        int status = probeReadiness(vertx, sidecar).await(10, TimeUnit.SECONDS);
        // The image's training run thereby also archives the classes of the call path.
        sidecar.warmedUp().await(60, TimeUnit.SECONDS);
        sidecar.close().compose(v -> vertx.close()).await(10, TimeUnit.SECONDS);
        if (status != 200) {
          err.println("error: the sidecar started but /readyz answered " + status);
          return 1;
        }
        err.println("toolgate sidecar: ready (/readyz 200); exiting as asked (--exit-when-ready)");
        err.flush();
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
      err.println(
          "toolgate sidecar: MCP clients connect to "
              + sidecar.mcpUrl("<upstream>")
              + " ; admin on port "
              + sidecar.adminPort());
      err.flush();
      Thread.currentThread().join();
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    } catch (Exception e) {
      err.println("error: the sidecar failed to start: " + Redacted.text(e.getMessage()));
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

  /** The jar's version, from its manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"toolgate-sidecar " + (v == null ? "dev" : v)};
    }
  }
}
