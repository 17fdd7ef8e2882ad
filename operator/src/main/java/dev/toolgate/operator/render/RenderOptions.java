package dev.toolgate.operator.render;

import dev.toolgate.policy.config.AgentIdentity;
import dev.toolgate.policy.config.ListenAddress;
import dev.toolgate.policy.config.RuntimeOptions;
import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.policy.config.StateApiOptions;
import java.util.List;

/**
 * What the rendered sidecar configuration adds to a ToolPolicy's spec: where the sidecar listens,
 * who it serves, where the shared state and the secrets are. Defaults suit an injected sidecar.
 *
 * @param revision the policy revision being rendered
 * @param agentId the workload (all its sessions share per-agent quotas)
 * @param sharedStateMode {@code client} in a cluster; {@code embedded} (the default) or {@code
 *     local} elsewhere
 * @param hazelcastServiceDns client mode: the Hazelcast headless service
 * @param hazelcastMembers client mode: member addresses, when not discovered by DNS
 * @param approvalKeysFile where the approvers' public keys (a JWK set) are mounted
 * @param adminTokenFile where the admin token Secret is mounted, if any
 * @param adminHost the admin listener's address: loopback by default; the pod's (0.0.0.0) for an
 *     injected sidecar, which Prometheus scrapes
 * @param sharedStatePort embedded mode: the member's port
 * @param upstreamUrls upstream URLs to use instead of the spec's (a local run of a cluster policy)
 * @param listenPort the MCP port (default {@value #DEFAULT_LISTEN_PORT}; another one lets replicas
 *     share a host)
 * @param adminPort the admin port (default {@value #DEFAULT_ADMIN_PORT})
 * @param warmupCalls the sidecar's {@code runtime.warmupCalls} (0 turns the warm-up off); null
 *     renders the sidecar's own default
 * @param stateApi api mode: the state service's URL, CA and the sidecar's token file
 * @param notifySecretFile where the key that signs quota notifications is mounted, for a policy
 *     that names a webhook without one; null leaves the policy's as it is
 * @param upstreamCredentialsDir where upstream credentials are mounted: a relative file of an
 *     upstream's {@code auth} is resolved there; null leaves them as they are
 */
public record RenderOptions(
    long revision,
    String agentId,
    SharedStateOptions.Mode sharedStateMode,
    String hazelcastServiceDns,
    List<String> hazelcastMembers,
    String approvalKeysFile,
    String adminTokenFile,
    String adminHost,
    Integer sharedStatePort,
    java.util.Map<String, String> upstreamUrls,
    Integer listenPort,
    Integer adminPort,
    Integer warmupCalls,
    StateApiOptions stateApi,
    String notifySecretFile,
    String upstreamCredentialsDir) {

  /** Options without a mounted notification key. */
  public RenderOptions(
      long revision,
      String agentId,
      SharedStateOptions.Mode sharedStateMode,
      String hazelcastServiceDns,
      List<String> hazelcastMembers,
      String approvalKeysFile,
      String adminTokenFile,
      String adminHost,
      Integer sharedStatePort,
      java.util.Map<String, String> upstreamUrls,
      Integer listenPort,
      Integer adminPort,
      Integer warmupCalls,
      StateApiOptions stateApi) {
    this(
        revision,
        agentId,
        sharedStateMode,
        hazelcastServiceDns,
        hazelcastMembers,
        approvalKeysFile,
        adminTokenFile,
        adminHost,
        sharedStatePort,
        upstreamUrls,
        listenPort,
        adminPort,
        warmupCalls,
        stateApi,
        null,
        null);
  }

  public RenderOptions(
      long revision,
      String agentId,
      SharedStateOptions.Mode sharedStateMode,
      String hazelcastServiceDns,
      List<String> hazelcastMembers,
      String approvalKeysFile,
      String adminTokenFile,
      String adminHost,
      Integer sharedStatePort,
      java.util.Map<String, String> upstreamUrls,
      Integer listenPort,
      Integer adminPort,
      Integer warmupCalls) {
    this(
        revision,
        agentId,
        sharedStateMode,
        hazelcastServiceDns,
        hazelcastMembers,
        approvalKeysFile,
        adminTokenFile,
        adminHost,
        sharedStatePort,
        upstreamUrls,
        listenPort,
        adminPort,
        warmupCalls,
        null);
  }

  public RenderOptions(
      long revision,
      String agentId,
      SharedStateOptions.Mode sharedStateMode,
      String hazelcastServiceDns,
      List<String> hazelcastMembers,
      String approvalKeysFile,
      String adminTokenFile) {
    this(
        revision,
        agentId,
        sharedStateMode,
        hazelcastServiceDns,
        hazelcastMembers,
        approvalKeysFile,
        adminTokenFile,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  public static final int DEFAULT_LISTEN_PORT = ListenAddress.DEFAULT_PROXY_PORT;
  public static final int DEFAULT_ADMIN_PORT = ListenAddress.DEFAULT_ADMIN_PORT;

  public static final String DEFAULT_APPROVAL_KEYS_FILE = "/etc/toolgate/approval/keys.json";

  /**
   * The sidecar's own bound on {@code runtime.warmupCalls}, refused here rather than by every
   * injected sidecar at its start.
   */
  public static final int MAX_WARMUP_CALLS = RuntimeOptions.MAX_WARMUP_CALLS;

  /** The admin listener of an injected sidecar: the pod's address, for the Prometheus scrape. */
  public static final String INJECTED_ADMIN_HOST = "0.0.0.0";

  /** Where the injector mounts the admin API's token, in the sidecar container alone. */
  public static final String INJECTED_ADMIN_TOKEN_FILE =
      dev.toolgate.operator.inject.InjectionOptions.ADMIN_DIR + "/token";

  /** Where the injector mounts the key that signs quota notifications. */
  public static final String INJECTED_NOTIFY_SECRET_FILE =
      dev.toolgate.operator.inject.InjectionOptions.NOTIFY_DIR + "/secret";

  /** Where the injector mounts the sidecar's projected token for the state service. */
  public static final String INJECTED_STATE_TOKEN_FILE =
      dev.toolgate.operator.inject.InjectionOptions.STATE_TOKEN_DIR + "/token";

  /**
   * What the operator renders for the sidecars it injects: api mode on the state service (the CA
   * inside the signed configuration, the token the injector mounts), the admin listener on the
   * pod's address.
   */
  public static RenderOptions injected(String stateUrl, String stateCa, Integer warmupCalls) {
    return new RenderOptions(
        0,
        null,
        SharedStateOptions.Mode.API,
        null,
        List.of(),
        null,
        INJECTED_ADMIN_TOKEN_FILE,
        INJECTED_ADMIN_HOST,
        null,
        null,
        null,
        null,
        warmupCalls,
        new StateApiOptions(stateUrl, null, stateCa, INJECTED_STATE_TOKEN_FILE, null),
        INJECTED_NOTIFY_SECRET_FILE,
        dev.toolgate.operator.inject.InjectionOptions.UPSTREAMS_DIR);
  }

  /**
   * What the operator renders without a state service (the chart's {@code state.enabled: false}):
   * each sidecar keeps its quotas and records in process, so limits hold per replica only.
   */
  public static RenderOptions injectedWithoutState(Integer warmupCalls) {
    return new RenderOptions(
        0,
        null,
        SharedStateOptions.Mode.LOCAL,
        null,
        List.of(),
        null,
        INJECTED_ADMIN_TOKEN_FILE,
        INJECTED_ADMIN_HOST,
        null,
        null,
        null,
        null,
        warmupCalls,
        null,
        INJECTED_NOTIFY_SECRET_FILE,
        dev.toolgate.operator.inject.InjectionOptions.UPSTREAMS_DIR);
  }

  /** The same options with the sidecar listening on other ports. */
  public RenderOptions withPorts(int listen, int admin) {
    return new RenderOptions(
        revision,
        agentId,
        sharedStateMode,
        hazelcastServiceDns,
        hazelcastMembers,
        approvalKeysFile,
        adminTokenFile,
        adminHost,
        sharedStatePort,
        upstreamUrls,
        listen,
        admin,
        warmupCalls,
        stateApi,
        notifySecretFile,
        upstreamCredentialsDir);
  }

  /** The same options for another revision. */
  public RenderOptions forRevision(long other) {
    return new RenderOptions(
        other,
        agentId,
        sharedStateMode,
        hazelcastServiceDns,
        hazelcastMembers,
        approvalKeysFile,
        adminTokenFile,
        adminHost,
        sharedStatePort,
        upstreamUrls,
        listenPort,
        adminPort,
        warmupCalls,
        stateApi,
        notifySecretFile,
        upstreamCredentialsDir);
  }

  public RenderOptions {
    agentId = agentId == null ? AgentIdentity.DEFAULT_ID : agentId;
    sharedStateMode = sharedStateMode == null ? SharedStateOptions.Mode.EMBEDDED : sharedStateMode;
    hazelcastMembers = hazelcastMembers == null ? List.of() : List.copyOf(hazelcastMembers);
    approvalKeysFile = approvalKeysFile == null ? DEFAULT_APPROVAL_KEYS_FILE : approvalKeysFile;
    adminHost = adminHost == null ? ListenAddress.DEFAULT_HOST : adminHost;
    upstreamUrls = upstreamUrls == null ? java.util.Map.of() : java.util.Map.copyOf(upstreamUrls);
    listenPort = listenPort == null ? DEFAULT_LISTEN_PORT : listenPort;
    adminPort = adminPort == null ? DEFAULT_ADMIN_PORT : adminPort;
    stateApi = stateApi == null ? StateApiOptions.DEFAULT : stateApi;
    // Refused here, not by every injected sidecar at its start.
    if (warmupCalls != null && (warmupCalls < 0 || warmupCalls > MAX_WARMUP_CALLS)) {
      throw new IllegalArgumentException(
          "warmupCalls: must be between 0 (off) and " + MAX_WARMUP_CALLS + ", was " + warmupCalls);
    }
  }
}
