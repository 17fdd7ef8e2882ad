package dev.toolgate.operator.inject;

/**
 * How the webhook injects the sidecar: the image and resources come from the operator's
 * configuration (the chart's values), never from the pod.
 *
 * @param image the sidecar image
 * @param cpuRequest e.g. {@code 50m}
 * @param memoryRequest e.g. {@code 96Mi}
 * @param memoryLimit e.g. {@code 160Mi}
 * @param javaOpts JVM options added to the image's own, through {@code JDK_JAVA_OPTIONS}; blank
 *     adds none
 * @param operatorNamespace never injected into
 * @param nativeSidecars whether the cluster supports init containers with {@code restartPolicy:
 *     Always} (Kubernetes 1.29+): the agent then starts after the sidecar is ready and the sidecar
 *     outlives it
 * @param approvalSecret the Secret holding the approvers' public keys ({@code keys.json})
 * @param configKeys the public keys (a JWK set) every sidecar checks its configuration's signature
 *     with, set in the sidecar container's environment alone; null before the operator has read its
 *     signing key
 * @param mcpPort the sidecar's MCP port in the pod (the rendered {@code listen.port})
 * @param adminPort its admin port (the rendered {@code admin.port})
 * @param imagePullSecrets Secrets of the agent's namespace the kubelet pulls the sidecar image
 *     with, added to the pod's own
 */
public record InjectionOptions(
    String image,
    String cpuRequest,
    String memoryRequest,
    String memoryLimit,
    String javaOpts,
    String operatorNamespace,
    boolean nativeSidecars,
    String approvalSecret,
    String configKeys,
    int mcpPort,
    int adminPort,
    java.util.List<String> imagePullSecrets) {

  public static final String ANNOTATION_INJECT = "toolgate.dev/inject";
  public static final String ANNOTATION_POLICY = "toolgate.dev/policy";
  public static final String ANNOTATION_INJECTED = "toolgate.dev/injected";

  /** Per-pod overrides of the sidecar, read by {@link PodOverrides}. */
  public static final String ANNOTATION_CPU_REQUEST = "toolgate.dev/sidecar-cpu-request";

  public static final String ANNOTATION_MEMORY_REQUEST = "toolgate.dev/sidecar-memory-request";
  public static final String ANNOTATION_MEMORY_LIMIT = "toolgate.dev/sidecar-memory-limit";
  public static final String ANNOTATION_WARMUP_CALLS = "toolgate.dev/sidecar-warmup-calls";
  public static final String ANNOTATION_LOG_LEVEL = "toolgate.dev/sidecar-log-level";

  /** The label of injected pods: what the chart's PodMonitor selects to scrape the sidecars. */
  public static final String LABEL_SIDECAR = "toolgate.dev/sidecar";

  public static final String DEFAULT_POLICY = "default";
  public static final String CONTAINER = "toolgate-sidecar";
  public static final String CONFIG_DIR = "/etc/toolgate/config";
  public static final String APPROVAL_DIR = "/etc/toolgate/approval";

  /**
   * The Secret, in the pod's namespace, with the admin API's token (key {@code token}); mounted
   * into the sidecar container alone at {@link #ADMIN_DIR}, optional: without it the admin API of
   * the pod's sidecar stays closed.
   */
  public static final String ADMIN_SECRET = "toolgate-admin-token";

  public static final String ADMIN_DIR = "/etc/toolgate/admin";

  /**
   * The Secret, in the pod's namespace, with the key that signs quota notifications (key {@code
   * secret}); mounted into the sidecar container alone at {@link #NOTIFY_DIR}, optional.
   */
  public static final String NOTIFY_SECRET = "toolgate-notify";

  public static final String NOTIFY_DIR = "/etc/toolgate/notify";

  /**
   * The Secret, in the pod's namespace, with the credentials the sidecar sends upstreams in the
   * agent's place (the keys an upstream's {@code auth} names); mounted into the sidecar container
   * alone at {@link #UPSTREAMS_DIR}, optional.
   */
  public static final String UPSTREAMS_SECRET = "toolgate-upstream-credentials";

  public static final String UPSTREAMS_DIR = "/etc/toolgate/upstreams";

  /**
   * Read by the {@code java} launcher, ahead of the command line: how options reach the image's
   * entrypoint.
   */
  public static final String ENV_JAVA_OPTIONS = "JDK_JAVA_OPTIONS";

  /**
   * The sidecar image's class-data archive recorded in client mode (sidecar/Dockerfile), the mode
   * an injected sidecar runs in; the image's own JDK_JAVA_OPTIONS names the embedded mode's.
   */
  public static final String CLIENT_ARCHIVE = "/app/toolgate-sidecar-client.jsa";

  /** The environment variable that tells the agent where its MCP upstreams are reached. */
  public static final String ENV_MCP_BASE = "TOOLGATE_MCP_BASE_URL";

  /** The audience of the sidecar's token for the state service (the service checks it). */
  public static final String STATE_AUDIENCE = "toolgate-state";

  /** The token's life: the kubelet renews it at 80% of it; 10 minutes is the shortest allowed. */
  public static final long STATE_TOKEN_SECONDS = 600;

  /** Where the token is mounted, in the sidecar container alone. */
  public static final String STATE_TOKEN_DIR = "/var/run/secrets/toolgate/state";

  /** The sidecar's environment variable holding its agent id ({@link Workload}). */
  public static final String ENV_AGENT_ID = "TOOLGATE_AGENT_ID";

  /** The sidecar's environment variable holding {@link #configKeys()}. */
  public static final String ENV_CONFIG_KEYS = "TOOLGATE_CONFIG_KEYS";

  public InjectionOptions(
      String image,
      String cpuRequest,
      String memoryRequest,
      String memoryLimit,
      String javaOpts,
      String operatorNamespace,
      boolean nativeSidecars,
      String approvalSecret) {
    this(
        image,
        cpuRequest,
        memoryRequest,
        memoryLimit,
        javaOpts,
        operatorNamespace,
        nativeSidecars,
        approvalSecret,
        null,
        dev.toolgate.policy.config.ListenAddress.DEFAULT_PROXY_PORT,
        dev.toolgate.policy.config.ListenAddress.DEFAULT_ADMIN_PORT,
        java.util.List.of());
  }

  /** The same options with the signing key's public half. */
  public InjectionOptions withConfigKeys(String keys) {
    return new InjectionOptions(
        image,
        cpuRequest,
        memoryRequest,
        memoryLimit,
        javaOpts,
        operatorNamespace,
        nativeSidecars,
        approvalSecret,
        keys,
        mcpPort,
        adminPort,
        imagePullSecrets);
  }

  /** The same options with the sidecar on other ports and pulled with these Secrets. */
  public InjectionOptions withPorts(int mcp, int admin, java.util.List<String> pullSecrets) {
    return new InjectionOptions(
        image,
        cpuRequest,
        memoryRequest,
        memoryLimit,
        javaOpts,
        operatorNamespace,
        nativeSidecars,
        approvalSecret,
        configKeys,
        mcp,
        admin,
        pullSecrets);
  }

  public InjectionOptions {
    imagePullSecrets =
        imagePullSecrets == null ? java.util.List.of() : java.util.List.copyOf(imagePullSecrets);
    for (int port : new int[] {mcpPort, adminPort}) {
      if (port < 1024 || port > 65535) {
        throw new IllegalArgumentException("sidecar ports must be 1024 to 65535, was " + port);
      }
    }
    if (mcpPort == adminPort) {
      throw new IllegalArgumentException(
          "the sidecar's MCP and admin ports must differ, both were " + mcpPort);
    }
    javaOpts = javaOpts == null ? "" : javaOpts.strip();
    for (String option : javaOpts.split("\\s+")) {
      // The launcher refuses a main class or -jar in JDK_JAVA_OPTIONS: every sidecar would fail to
      // start.
      if (!option.isEmpty() && (!option.startsWith("-") || option.equals("-jar"))) {
        throw new IllegalArgumentException(
            "sidecar JVM options must be options (each starting with '-', no -jar),"
                + " was '"
                + javaOpts
                + "'");
      }
    }
  }
}
