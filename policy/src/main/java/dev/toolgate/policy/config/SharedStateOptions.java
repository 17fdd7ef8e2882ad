package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/**
 * Where quota counters and idempotency records live, so that every replica of an agent sees them.
 */
public record SharedStateOptions(
    @JsonPropertyDescription(
            "`local` (this process only), `embedded` (start a Hazelcast member in the "
                + "sidecar, bound to 127.0.0.1: the one-machine default), `api` (the "
                + "authenticated state service the chart deploys: the cluster mode) or `client` "
                + "(join a Hazelcast cluster directly: no authentication, for trusted networks "
                + "only).")
        Mode mode,
    @JsonPropertyDescription("The Hazelcast cluster name.") String clusterName,
    @JsonPropertyDescription("Member addresses (`host:port`); for `embedded`, the peers to join.")
        List<String> members,
    @JsonPropertyDescription("Client mode: discover members through this headless service's DNS.")
        String kubernetesServiceDns,
    @JsonPropertyDescription("Embedded mode: the member's port (0 picks a free one).") Integer port,
    @JsonPropertyDescription(
            "What a write does when the cluster cannot be reached: `fail_closed` (refused) "
                + "or `fail_open` (counted on local state).")
        WhenUnavailable writesWhenUnavailable,
    @JsonPropertyDescription(
            "The key (`<namespace>/<policy>`) under which the operator publishes this "
                + "sidecar's configuration; when set, a publication is applied within seconds "
                + "(the mounted file stays the fallback).")
        String configKey,
    @JsonPropertyDescription("`api` mode: where the state service is and how to prove who this is.")
        StateApiOptions api) {

  /** The options without the state service's. */
  public SharedStateOptions(
      Mode mode,
      String clusterName,
      List<String> members,
      String kubernetesServiceDns,
      Integer port,
      WhenUnavailable writesWhenUnavailable,
      String configKey) {
    this(
        mode,
        clusterName,
        members,
        kubernetesServiceDns,
        port,
        writesWhenUnavailable,
        configKey,
        null);
  }

  public static final String DEFAULT_CLUSTER_NAME = "toolgate";
  public static final int DEFAULT_PORT = 5701;

  /** Where the state lives. */
  public enum Mode {
    @JsonProperty("local")
    LOCAL,
    @JsonProperty("embedded")
    EMBEDDED,
    @JsonProperty("client")
    CLIENT,
    @JsonProperty("api")
    API
  }

  /** What a write does without the cluster. */
  public enum WhenUnavailable {
    @JsonProperty("fail_closed")
    FAIL_CLOSED,
    @JsonProperty("fail_open")
    FAIL_OPEN
  }

  public static final SharedStateOptions DEFAULT =
      new SharedStateOptions(null, null, null, null, null, null, null, null);

  public SharedStateOptions {
    mode = mode == null ? Mode.EMBEDDED : mode;
    clusterName = clusterName == null ? DEFAULT_CLUSTER_NAME : clusterName;
    members = members == null ? List.of() : List.copyOf(members);
    port = port == null ? DEFAULT_PORT : port;
    writesWhenUnavailable =
        writesWhenUnavailable == null ? WhenUnavailable.FAIL_CLOSED : writesWhenUnavailable;
    api = api == null ? StateApiOptions.DEFAULT : api;
  }

  /** The same options with the state service's files resolved by {@code resolve}. */
  public SharedStateOptions withApi(StateApiOptions resolved) {
    return new SharedStateOptions(
        mode,
        clusterName,
        members,
        kubernetesServiceDns,
        port,
        writesWhenUnavailable,
        configKey,
        resolved);
  }
}
