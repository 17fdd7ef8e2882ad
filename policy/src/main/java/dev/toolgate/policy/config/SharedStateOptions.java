package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Where quota counters and idempotency records live, so that every replica of an agent sees them.
 *
 * @param mode {@code local} (this process only), {@code embedded} (start a Hazelcast member in the
 *     sidecar: the no-cluster default) or {@code client} (join the cluster the chart deploys)
 * @param clusterName the Hazelcast cluster name
 * @param members member addresses ({@code host:port}); for {@code embedded}, the peers to join
 * @param kubernetesServiceDns client mode: discover members through this headless service's DNS
 * @param port embedded mode: the member's port (0 picks a free one)
 * @param writesWhenUnavailable what a write does when the cluster cannot be reached:
 *     {@code fail_closed} (refused) or {@code fail_open} (counted on local state)
 * @param configKey the key ({@code <namespace>/<policy>}) under which the operator publishes this
 *     sidecar's configuration; when set, a publication is applied within seconds (the mounted file
 *     stays the fallback)
 */
public record SharedStateOptions(
    Mode mode,
    String clusterName,
    List<String> members,
    String kubernetesServiceDns,
    Integer port,
    WhenUnavailable writesWhenUnavailable,
    String configKey) {

  public static final String DEFAULT_CLUSTER_NAME = "toolgate";
  public static final int DEFAULT_PORT = 5701;

  /** Where the state lives. */
  public enum Mode {
    @JsonProperty("local")
    LOCAL,
    @JsonProperty("embedded")
    EMBEDDED,
    @JsonProperty("client")
    CLIENT
  }

  /** What a write does without the cluster. */
  public enum WhenUnavailable {
    @JsonProperty("fail_closed")
    FAIL_CLOSED,
    @JsonProperty("fail_open")
    FAIL_OPEN
  }

  public static final SharedStateOptions DEFAULT = new SharedStateOptions(null, null, null, null, null, null, null);

  public SharedStateOptions {
    mode = mode == null ? Mode.EMBEDDED : mode;
    clusterName = clusterName == null ? DEFAULT_CLUSTER_NAME : clusterName;
    members = members == null ? List.of() : List.copyOf(members);
    port = port == null ? DEFAULT_PORT : port;
    writesWhenUnavailable = writesWhenUnavailable == null ? WhenUnavailable.FAIL_CLOSED : writesWhenUnavailable;
  }
}
