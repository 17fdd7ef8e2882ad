package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.util.UUID;

/** A real Hazelcast member on 127.0.0.1 in a cluster of its own, for the store tests. */
final class LoopbackMember {

  private LoopbackMember() {}

  static HazelcastInstance start(String clusterPrefix) {
    Config config = new Config().setClusterName(clusterPrefix + "-" + UUID.randomUUID());
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config
        .getNetworkConfig()
        .setPort(5801)
        .setPortAutoIncrement(true)
        .setPortCount(100)
        .getInterfaces()
        .setEnabled(true)
        .addInterface("127.0.0.1");
    config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
    config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
    return Hazelcast.newHazelcastInstance(config);
  }
}
