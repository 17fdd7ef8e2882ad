package dev.toolgate.operator;

import dev.toolgate.operator.inject.InjectionOptions;
import dev.toolgate.operator.render.RenderOptions;
import dev.toolgate.policy.config.ListenAddress;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code toolgate-operator run}: the operator in a cluster, configured by the environment the chart
 * sets (a Deployment's env, not flags, so the chart's values map one to one).
 */
@Command(
    name = "run",
    usageHelpWidth = 100,
    mixinStandardHelpOptions = true,
    description = {
      "Runs the operator in a cluster (in-cluster credentials or KUBECONFIG). Settings come from the",
      "environment the chart sets:",
      "  TOOLGATE_NAMESPACE             the operator's namespace (default toolgate)",
      "  POD_NAME                       this replica's identity in the lease",
      "  TOOLGATE_WEBHOOK_PORT          HTTPS port of the injection webhook (default 8443)",
      "  TOOLGATE_HEALTH_PORT           HTTP port of /healthz and /readyz (default 8081)",
      "  TOOLGATE_WEBHOOK_SERVICE       its Service (default toolgate-webhook); the certificates",
      "                                 every replica serves are in the Secret <service>-certs",
      "  TOOLGATE_WEBHOOK_CONFIGURATION the MutatingWebhookConfiguration (default toolgate-injector)",
      "  TOOLGATE_SIDECAR_IMAGE         the sidecar image to inject",
      "  TOOLGATE_SIDECAR_CPU_REQUEST / _MEMORY_REQUEST / _MEMORY_LIMIT   (50m / 96Mi / 160Mi)",
      "  TOOLGATE_SIDECAR_JAVA_OPTS     JVM options for every sidecar (in its JDK_JAVA_OPTIONS,",
      "                                 after the image's client-mode archive; default none)",
      "  TOOLGATE_SIDECAR_WARMUP_CALLS  every sidecar's runtime.warmupCalls, 0 (off) to "
          + RenderOptions.MAX_WARMUP_CALLS,
      "                                 (default: the sidecar's own)",
      "  TOOLGATE_NATIVE_SIDECARS       true (Kubernetes 1.29+) or false",
      "  TOOLGATE_SIDECAR_MCP_PORT / _ADMIN_PORT   the sidecar's ports in the pod (17000 / 17020)",
      "  TOOLGATE_SIDECAR_PULL_SECRETS  Secrets (comma-separated) of each agent namespace to pull",
      "                                 the sidecar image with",
      "  TOOLGATE_APPROVAL_SECRET       the Secret with the approvers' public keys, keys.json (default toolgate-approval-keys)",
      "  TOOLGATE_SIGNING_SECRET        the Secret with the configuration-signing key, created when",
      "                                 missing (default toolgate-config-signing)",
      "  TOOLGATE_STATE_SERVICE         the state service's Service (its TLS Secret is <service>-tls,",
      "                                 created when missing); without it each sidecar keeps its own",
      "                                 state",
      "  TOOLGATE_STATE_PORT            its API port (default 8443)",
      "  TOOLGATE_STATE_URL             instead, the https URL of a state service you run, with",
      "  TOOLGATE_STATE_CA_FILE         a file holding its CA (PEM)",
      "  TOOLGATE_STATE_TOKEN_FILE      the operator's token for it (default "
          + RunCommand.STATE_DIR
          + "/token)",
      "  TOOLGATE_WEBHOOK_CERT_DIR      use cert-manager's mounted Secret (tls.crt, tls.key, ca.crt)",
      "                                 instead of the operator's own CA, rotated in <service>-certs"
    })
final class RunCommand implements Callable<Integer> {

  /** Where the chart mounts the state service's CA and the operator's token for it. */
  static final String STATE_DIR = "/var/run/secrets/toolgate/state";

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
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
                  env("TOOLGATE_APPROVAL_SECRET", "toolgate-approval-keys"))
              .withPorts(
                  port("TOOLGATE_SIDECAR_MCP_PORT", ListenAddress.DEFAULT_PROXY_PORT),
                  port("TOOLGATE_SIDECAR_ADMIN_PORT", ListenAddress.DEFAULT_ADMIN_PORT),
                  List.of(env("TOOLGATE_SIDECAR_PULL_SECRETS", "").split(",")).stream()
                      .map(String::strip)
                      .filter(n -> !n.isEmpty())
                      .toList());
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 2;
    }
    Integer warmup;
    try {
      warmup = warmupCalls(env("TOOLGATE_SIDECAR_WARMUP_CALLS", null));
      // Checked now; the state service's CA is read from its Secret once the client exists.
      rendering =
          RenderOptions.injectedWithoutState(warmup)
              .withPorts(injection.mcpPort(), injection.adminPort());
    } catch (IllegalArgumentException e) {
      err.println("error: TOOLGATE_SIDECAR_WARMUP_CALLS: " + e.getMessage());
      return 2;
    }
    OperatorProcess.ExternalState external;
    try {
      external = externalState();
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 2;
    }
    OperatorProcess process =
        new OperatorProcess(
            namespace,
            env("POD_NAME", "toolgate-operator-" + ProcessHandle.current().pid()),
            Integer.parseInt(env("TOOLGATE_WEBHOOK_PORT", "8443")),
            Integer.parseInt(env("TOOLGATE_HEALTH_PORT", "8081")),
            env("TOOLGATE_WEBHOOK_SERVICE", "toolgate-webhook"),
            env("TOOLGATE_WEBHOOK_CONFIGURATION", "toolgate-injector"),
            injection,
            rendering,
            env("TOOLGATE_SIGNING_SECRET", "toolgate-config-signing"),
            env("TOOLGATE_STATE_SERVICE", null),
            env("TOOLGATE_STATE_PORT", "8443"),
            env("TOOLGATE_STATE_TOKEN_FILE", STATE_DIR + "/token"),
            external);
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

  private static OperatorProcess.ExternalState externalState() {
    String url = env("TOOLGATE_STATE_URL", null);
    if (url == null) {
      return null;
    }
    if (!url.startsWith("https://")) {
      throw new IllegalArgumentException("TOOLGATE_STATE_URL must be an https URL, was " + url);
    }
    String ca = env("TOOLGATE_STATE_CA_FILE", null);
    if (ca == null) {
      throw new IllegalArgumentException("TOOLGATE_STATE_URL needs TOOLGATE_STATE_CA_FILE");
    }
    return new OperatorProcess.ExternalState(url, Path.of(ca));
  }

  private static int port(String name, int fallback) {
    String value = env(name, null);
    try {
      return value == null ? fallback : Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " takes a port number, was '" + value + "'");
    }
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
}
