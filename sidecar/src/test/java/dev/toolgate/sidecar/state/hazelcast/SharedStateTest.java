package dev.toolgate.sidecar.state.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.client.config.ClientConfig;
import dev.toolgate.policy.config.SharedStateOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Hazelcast client a sidecar starts in client mode, as configured (no cluster needed). */
class SharedStateTest {

  private static ClientConfig client(List<String> members, String dns) {
    return SharedState.clientConfig(
        new SharedStateOptions(
            SharedStateOptions.Mode.CLIENT, "toolgate", members, dns, null, null, null));
  }

  @Test
  void sweepsForLostBackupAcksOnceASecondInsteadOfTenTimes() {
    assertThat(
            client(List.of("127.0.0.1:5701"), null)
                .getProperty("hazelcast.client.internal.clean.resources.millis"))
        .isEqualTo("1000");
  }

  @Test
  void runsOneThreadOfEachKindAndNoMetrics() {
    ClientConfig config = client(List.of("127.0.0.1:5701"), null);

    assertThat(config.getProperty("hazelcast.client.event.thread.count")).isEqualTo("1");
    assertThat(config.getProperty("hazelcast.client.internal.executor.pool.size")).isEqualTo("1");
    assertThat(config.getProperty("hazelcast.client.response.thread.count")).isEqualTo("1");
    assertThat(config.getProperty("hazelcast.client.io.input.thread.count")).isEqualTo("1");
    assertThat(config.getProperty("hazelcast.client.io.output.thread.count")).isEqualTo("1");
    assertThat(config.getMetricsConfig().isEnabled()).isFalse();
  }

  @Test
  void findsTheClusterByItsAddressesOrByKubernetesDns() {
    assertThat(
            client(List.of("10.0.0.1:5701", "10.0.0.2:5701"), null)
                .getNetworkConfig()
                .getAddresses())
        .containsExactly("10.0.0.1:5701", "10.0.0.2:5701");
    ClientConfig dns = client(List.of(), "Toolgate-Hazelcast.toolgate.svc.cluster.local");
    assertThat(dns.getNetworkConfig().getKubernetesConfig().isEnabled()).isTrue();
    assertThat(dns.getNetworkConfig().getKubernetesConfig().getProperty("service-dns"))
        .isEqualTo("toolgate-hazelcast.toolgate.svc.cluster.local");
  }
}
