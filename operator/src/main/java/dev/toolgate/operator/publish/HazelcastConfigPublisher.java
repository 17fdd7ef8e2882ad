package dev.toolgate.operator.publish;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import dev.toolgate.operator.reconcile.ConfigPublisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes active configurations into the Hazelcast map the sidecars follow ({@code
 * toolgate.configs}). A failed publication is logged: the ConfigMap still carries the
 * configuration, only later.
 */
public final class HazelcastConfigPublisher implements ConfigPublisher, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HazelcastConfigPublisher.class);
  public static final String CONFIGS = "toolgate.configs";

  private final HazelcastInstance hazelcast;

  public HazelcastConfigPublisher(HazelcastInstance hazelcast) {
    this.hazelcast = hazelcast;
  }

  /** A client of the cluster behind a headless service (Kubernetes DNS discovery). */
  public static HazelcastConfigPublisher connect(String clusterName, String serviceDns) {
    ClientConfig config = new ClientConfig();
    config.setClusterName(clusterName);
    config
        .getNetworkConfig()
        .getKubernetesConfig()
        .setEnabled(true)
        .setProperty("service-dns", serviceDns);
    config.getConnectionStrategyConfig().setAsyncStart(true);
    return new HazelcastConfigPublisher(HazelcastClient.newHazelcastClient(config));
  }

  @Override
  public void publish(String key, String config) {
    try {
      hazelcast.<String, String>getMap(CONFIGS).set(key, config);
    } catch (RuntimeException e) {
      LOG.warn(
          "cannot publish the configuration of {} ({}); sidecars get it from the ConfigMap",
          key,
          e.getMessage());
    }
  }

  @Override
  public void withdraw(String key) {
    try {
      hazelcast.<String, String>getMap(CONFIGS).delete(key);
    } catch (RuntimeException e) {
      LOG.warn("cannot withdraw the configuration of {}: {}", key, e.getMessage());
    }
  }

  @Override
  public void close() {
    hazelcast.shutdown();
  }
}
