package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.config.ClientConnectionStrategyConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.ListenerConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.core.LifecycleListener;
import dev.toolgate.policy.config.SharedStateOptions;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Starts the Hazelcast side of the shared state: an embedded member (one command, no cluster) or a
 * client of the cluster (addresses or Kubernetes DNS discovery, smart routing to all members).
 * Multicast is never used: members only find the peers they are told about.
 */
public final class SharedState {

  static final String CLEAN_RESOURCES_MILLIS = "hazelcast.client.internal.clean.resources.millis";
  static final long CLEAN_RESOURCES_PERIOD_MS = 1_000;

  private SharedState() {}

  /**
   * The only address an embedded member binds: Hazelcast Community authenticates nobody, so its
   * port must be reachable from this machine alone.
   */
  public static final String MEMBER_HOST = "127.0.0.1";

  /** Blocking: call it on a worker thread. */
  public static HazelcastInstance start(SharedStateOptions options) {
    System.setProperty("hazelcast.logging.type", "slf4j");
    System.setProperty("hazelcast.phone.home.enabled", "false");
    return switch (options.mode()) {
      case EMBEDDED -> member(options);
      case CLIENT -> client(options);
      case LOCAL, API ->
          throw new IllegalArgumentException(
              options.mode() + " mode starts no Hazelcast member or client");
    };
  }

  private static HazelcastInstance member(SharedStateOptions options) {
    return Hazelcast.newHazelcastInstance(memberConfig(options, MEMBER_HOST));
  }

  /**
   * A member of the state service's cluster, bound to {@code bindHost} (the pod's address: the
   * other members must reach it; the chart's NetworkPolicy lets only them in). Blocking.
   */
  static HazelcastInstance serviceMember(SharedStateOptions options, String bindHost) {
    System.setProperty("hazelcast.logging.type", "slf4j");
    System.setProperty("hazelcast.phone.home.enabled", "false");
    return Hazelcast.newHazelcastInstance(memberConfig(options, bindHost));
  }

  /**
   * An embedded member's configuration: bound to {@value #MEMBER_HOST} only (not the wildcard
   * address Hazelcast binds by default, whatever interface it advertises), joining only the peers
   * it is told about.
   */
  static Config memberConfig(SharedStateOptions options, String bindHost) {
    Config config = new Config();
    config.setClusterName(options.clusterName());
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    config.getNetworkConfig().setPort(options.port()).setPortAutoIncrement(true);
    config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface(bindHost);
    config.setProperty("hazelcast.local.localAddress", bindHost);
    config.setProperty("hazelcast.socket.bind.any", "false");
    JoinConfig join = config.getNetworkConfig().getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(options.members());
    config.getMapConfig(HazelcastQuotaStore.SESSIONS).setMaxIdleSeconds(2 * 3600).setBackupCount(1);
    config.getMapConfig(HazelcastQuotaStore.AGENTS).setMaxIdleSeconds(2 * 3600).setBackupCount(1);
    config.getMapConfig(HazelcastIdempotencyStore.RECORDS).setBackupCount(1);
    // Hazelcast's own metrics feed Management Center and JMX, neither of which a sidecar has: their
    // collection costs start-up time (MBeans) and a thread every few seconds.
    config.getMetricsConfig().setEnabled(false);
    // The jar's service file lists only a client's serializer hooks; a member needs all of
    // Hazelcast's.
    config.setClassLoader(MemberSerializerHooks.over(SharedState.class.getClassLoader()));
    return config;
  }

  /** How long a client's start waits for its cluster before the sidecar's start fails. */
  static final long START_TIMEOUT_MS = 10_000;

  /**
   * A client that has reached its cluster within {@link #START_TIMEOUT_MS}, else none (the start
   * fails naming the members). Once started it never gives its cluster up: a cluster away for
   * minutes is reconnected to in the background, the sidecar serving on local state meanwhile.
   */
  private static HazelcastInstance client(SharedStateOptions options) {
    CountDownLatch connected = new CountDownLatch(1);
    ClientConfig config = clientConfig(options);
    config.addListenerConfig(
        new ListenerConfig(
            (LifecycleListener)
                event -> {
                  if (event.getState() == LifecycleEvent.LifecycleState.CLIENT_CONNECTED) {
                    connected.countDown();
                  }
                }));
    HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
    try {
      if (!connected.await(START_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
        client.shutdown();
        throw new IllegalStateException(
            "no Hazelcast member of cluster '"
                + options.clusterName()
                + "' answered within "
                + START_TIMEOUT_MS
                + " ms at "
                + (options.kubernetesServiceDns() != null
                    ? options.kubernetesServiceDns()
                    : options.members()));
      }
    } catch (InterruptedException e) {
      client.shutdown();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the Hazelcast cluster", e);
    }
    ConnectionTaskPool.cap(client);
    return client;
  }

  /**
   * The client's configuration: a few threads, few wake-ups, the cluster's addresses or DNS name.
   */
  static ClientConfig clientConfig(SharedStateOptions options) {
    ClientConfig config = new ClientConfig();
    config.setClusterName(options.clusterName());
    config.setProperty("hazelcast.client.shutdownhook.enabled", "false");
    // A sidecar's client serves one agent: a few threads, not a server's pools (memory, context
    // switches).
    config.setProperty("hazelcast.client.event.thread.count", "1");
    config.setProperty("hazelcast.client.internal.executor.pool.size", "1");
    config.setProperty("hazelcast.client.response.thread.count", "1");
    config.setProperty("hazelcast.client.io.input.thread.count", "1");
    config.setProperty("hazelcast.client.io.output.thread.count", "1");
    // The sweep for backup acks that did not come, every 100 ms by default: the most frequent
    // wake-up of an idle sidecar. Once a second, a lost
    // ack is noticed up to a second after its 5 s timeout instead of a tenth.
    config.setProperty(CLEAN_RESOURCES_MILLIS, Long.toString(CLEAN_RESOURCES_PERIOD_MS));
    config.getMetricsConfig().setEnabled(false);
    if (options.kubernetesServiceDns() != null) {
      config
          .getNetworkConfig()
          .getKubernetesConfig()
          .setEnabled(true)
          .setProperty("service-dns", options.kubernetesServiceDns().toLowerCase(Locale.ROOT));
    } else {
      config.getNetworkConfig().setAddresses(options.members());
    }
    // Serve on local state while the cluster is away; reconnect in the background, for as long as
    // it takes (a client that gives up shuts down for good). The start is bounded by client().
    config
        .getConnectionStrategyConfig()
        .setAsyncStart(true)
        .setReconnectMode(ClientConnectionStrategyConfig.ReconnectMode.ASYNC);
    config
        .getConnectionStrategyConfig()
        .getConnectionRetryConfig()
        .setClusterConnectTimeoutMillis(-1);
    return config;
  }
}
