package dev.toolgate.operator;

import dev.toolgate.operator.inject.InjectionOptions;
import dev.toolgate.operator.render.RenderOptions;
import dev.toolgate.operator.render.SidecarConfigRenderer;
import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.policy.validation.InvalidPolicyException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** {@code java -jar operator/target/toolgate-operator.jar render -f toolpolicy.yaml}. */
public final class Main {

  static final String USAGE =
      """
      Usage: java -jar operator/target/toolgate-operator.jar render -f FILE [options]
             java -jar operator/target/toolgate-operator.jar run   (in a cluster; see run --help)

      Renders a ToolPolicy (YAML) into the sidecar configuration it stands for, on stdout.
        -f, --file FILE            the ToolPolicy
        --revision N               the revision to stamp (default 1)
        --agent ID                 the workload's id (default local)
        --shared-state MODE        embedded (default), local or client
        --hazelcast-dns NAME       client mode: the Hazelcast headless service
        --hazelcast-members LIST   client mode: comma-separated host:port
        --approval-key-file PATH   where the approval key is mounted (default %s)
        --admin-token-file PATH    where the admin token is mounted
        --admin-host HOST          the admin listener's address (default 127.0.0.1; 0.0.0.0 to be scraped)
        --shared-state-port N      embedded mode: the member's port
        --upstream NAME=URL        use URL for upstream NAME (repeatable): run a cluster policy locally
        --listen-port N            the MCP port (default %d)
        --admin-port N             the admin port (default %d)
        --warmup-calls N           the sidecar's runtime.warmupCalls, 0 (off) to %d (default:
                                   the sidecar's own, 1000)
      """
          .formatted(
              RenderOptions.DEFAULT_APPROVAL_KEY_FILE,
              RenderOptions.DEFAULT_LISTEN_PORT,
              RenderOptions.DEFAULT_ADMIN_PORT,
              RenderOptions.MAX_WARMUP_CALLS);

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      out.print(USAGE);
      return args.length == 0 ? 2 : 0;
    }
    if (args[0].equals("run")) {
      return runOperator(args, out, err);
    }
    if (!args[0].equals("render")) {
      return usage(err, "unknown command '" + args[0] + "'");
    }
    String file = null;
    long revision = 1;
    String agent = null;
    String mode = null;
    String dns = null;
    List<String> members = List.of();
    String approvalKey = null;
    String adminToken = null;
    String adminHost = null;
    Integer sharedPort = null;
    Integer listenPort = null;
    Integer adminPort = null;
    Integer warmupCalls = null;
    java.util.Map<String, String> upstreams = new java.util.LinkedHashMap<>();
    for (int i = 1; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("--help") || flag.equals("-h")) {
        out.print(USAGE);
        return 0;
      }
      if (i + 1 >= args.length) {
        return usage(err, flag + " needs a value");
      }
      String value = args[++i];
      switch (flag) {
        case "-f", "--file" -> file = value;
        case "--revision" -> {
          try {
            revision = Long.parseLong(value);
          } catch (NumberFormatException e) {
            return usage(err, "--revision takes a whole number, was '" + value + "'");
          }
        }
        case "--agent" -> agent = value;
        case "--shared-state" -> mode = value;
        case "--hazelcast-dns" -> dns = value;
        case "--hazelcast-members" -> members = Arrays.asList(value.split(","));
        case "--approval-key-file" -> approvalKey = value;
        case "--admin-token-file" -> adminToken = value;
        case "--admin-host" -> adminHost = value;
        case "--shared-state-port", "--listen-port", "--admin-port" -> {
          int port;
          try {
            port = Integer.parseInt(value);
          } catch (NumberFormatException e) {
            return usage(err, flag + " takes a number, was '" + value + "'");
          }
          if (port < 1 || port > 65535) {
            return usage(err, flag + " must be in [1, 65535], was " + port);
          }
          switch (flag) {
            case "--listen-port" -> listenPort = port;
            case "--admin-port" -> adminPort = port;
            default -> sharedPort = port;
          }
        }
        case "--warmup-calls" -> {
          try {
            warmupCalls = warmupCalls(value);
          } catch (IllegalArgumentException e) {
            return usage(err, "--warmup-calls " + e.getMessage());
          }
        }
        case "--upstream" -> {
          int eq = value.indexOf('=');
          if (eq <= 0) {
            return usage(err, "--upstream takes NAME=URL, was '" + value + "'");
          }
          upstreams.put(value.substring(0, eq), value.substring(eq + 1));
        }
        default -> {
          return usage(err, "unknown argument '" + flag + "'");
        }
      }
    }
    if (file == null) {
      return usage(err, "-f FILE is required");
    }
    RenderOptions options;
    try {
      options =
          new RenderOptions(
              revision,
              agent,
              mode == null ? null : sharedStateMode(mode),
              dns,
              members,
              approvalKey,
              adminToken,
              adminHost,
              sharedPort,
              upstreams,
              listenPort,
              adminPort,
              warmupCalls);
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
    }
    try {
      String text = Files.readString(Path.of(file));
      out.print(SidecarConfigRenderer.render(SidecarConfigRenderer.parse(text), options));
      return 0;
    } catch (IOException e) {
      err.println("error: cannot read " + file + ": " + e.getMessage());
      return 2;
    } catch (InvalidPolicyException e) {
      err.println("error: " + file + ": " + e.getMessage());
      return 2;
    } catch (RuntimeException e) {
      err.println("error: " + file + " is not a valid ToolPolicy: " + e.getMessage());
      return 2;
    }
  }

  static final String RUN_USAGE =
      """
      Usage: java -jar toolgate-operator.jar run
      Runs the operator in a cluster (in-cluster credentials or KUBECONFIG). Settings come from the
      environment the chart sets:
        TOOLGATE_NAMESPACE             the operator's namespace (default toolgate)
        POD_NAME                       this replica's identity in the lease
        TOOLGATE_WEBHOOK_PORT          HTTPS port of the injection webhook (default 8443)
        TOOLGATE_WEBHOOK_SERVICE       its Service (default toolgate-webhook)
        TOOLGATE_WEBHOOK_CONFIGURATION the MutatingWebhookConfiguration (default toolgate-injector)
        TOOLGATE_SIDECAR_IMAGE         the sidecar image to inject
        TOOLGATE_SIDECAR_CPU_REQUEST / _MEMORY_REQUEST / _MEMORY_LIMIT   (50m / 96Mi / 160Mi)
        TOOLGATE_SIDECAR_JAVA_OPTS     JVM options for every sidecar (in its JDK_JAVA_OPTIONS, after the
                                       image's client-mode archive; default none)
        TOOLGATE_SIDECAR_WARMUP_CALLS  every sidecar's runtime.warmupCalls, 0 (off) to %d
                                       (default: none rendered, the sidecar's own)
        TOOLGATE_NATIVE_SIDECARS       true (Kubernetes 1.29+) or false
        TOOLGATE_APPROVAL_SECRET       the Secret with the approval key (default toolgate-approval-key)
        TOOLGATE_HAZELCAST_DNS         the Hazelcast headless service the sidecars join
        TOOLGATE_WEBHOOK_CERT_DIR      use cert-manager's mounted Secret (tls.crt, tls.key, ca.crt)
                                       instead of generating and rotating certificates
      """
          .formatted(RenderOptions.MAX_WARMUP_CALLS);

  private static int runOperator(String[] args, PrintStream out, PrintStream err) {
    if (args.length > 1) {
      out.print(RUN_USAGE);
      return args[1].equals("--help") || args[1].equals("-h") ? 0 : 2;
    }
    String namespace = env("TOOLGATE_NAMESPACE", "toolgate");
    InjectionOptions injection;
    RenderOptions rendering;
    try {
      injection =
          new InjectionOptions(
              env("TOOLGATE_SIDECAR_IMAGE", "ghcr.io/toolgate/sidecar:latest"),
              env("TOOLGATE_SIDECAR_CPU_REQUEST", "50m"),
              env("TOOLGATE_SIDECAR_MEMORY_REQUEST", "96Mi"),
              env("TOOLGATE_SIDECAR_MEMORY_LIMIT", "160Mi"),
              env("TOOLGATE_SIDECAR_JAVA_OPTS", ""),
              namespace,
              Boolean.parseBoolean(env("TOOLGATE_NATIVE_SIDECARS", "true")),
              env("TOOLGATE_APPROVAL_SECRET", "toolgate-approval-key"));
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 2;
    }
    try {
      rendering =
          RenderOptions.injected(
              env(
                  "TOOLGATE_HAZELCAST_DNS",
                  "toolgate-hazelcast." + namespace + ".svc.cluster.local"),
              warmupCalls(env("TOOLGATE_SIDECAR_WARMUP_CALLS", null)));
    } catch (IllegalArgumentException e) {
      err.println("error: TOOLGATE_SIDECAR_WARMUP_CALLS: " + e.getMessage());
      return 2;
    }
    OperatorProcess process =
        new OperatorProcess(
            namespace,
            env("POD_NAME", "toolgate-operator-" + ProcessHandle.current().pid()),
            Integer.parseInt(env("TOOLGATE_WEBHOOK_PORT", "8443")),
            env("TOOLGATE_WEBHOOK_SERVICE", "toolgate-webhook"),
            env("TOOLGATE_WEBHOOK_CONFIGURATION", "toolgate-injector"),
            injection,
            rendering);
    try {
      process.run();
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    } catch (Exception e) {
      err.println("error: the operator failed: " + e.getMessage());
      return 1;
    }
  }

  private static SharedStateOptions.Mode sharedStateMode(String value) {
    for (SharedStateOptions.Mode mode : SharedStateOptions.Mode.values()) {
      if (mode.name().equalsIgnoreCase(value)) {
        return mode;
      }
    }
    throw new IllegalArgumentException(
        "--shared-state takes local, embedded or client, was '" + value + "'");
  }

  private static Integer warmupCalls(String value) {
    if (value == null) {
      return null;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("takes a whole number, was '" + value + "'");
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  private static int usage(PrintStream err, String message) {
    err.println("error: " + message + "\n\n" + USAGE);
    return 2;
  }
}
