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
    String configKeys) {

  public static final String ANNOTATION_INJECT = "toolgate.dev/inject";
  public static final String ANNOTATION_POLICY = "toolgate.dev/policy";
  public static final String ANNOTATION_INJECTED = "toolgate.dev/injected";

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
        null);
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
        keys);
  }

  public InjectionOptions {
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
