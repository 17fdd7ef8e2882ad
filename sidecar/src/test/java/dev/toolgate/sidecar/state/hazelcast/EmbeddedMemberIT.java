package dev.toolgate.sidecar.state.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.hazelcast.core.HazelcastInstance;
import dev.toolgate.e2e.support.LoopbackPorts;
import dev.toolgate.policy.config.SharedStateOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An embedded member, as the agent sharing the machine (or the pod) would probe it: its port
 * answers on loopback and on no other address of the machine.
 */
class EmbeddedMemberIT {

  private static List<InetAddress> otherAddresses() throws SocketException {
    return Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
        .flatMap(nic -> Collections.list(nic.getInetAddresses()).stream())
        .filter(address -> !address.isLoopbackAddress() && !address.isLinkLocalAddress())
        .toList();
  }

  @Test
  void anEmbeddedMemberListensOnLoopbackOnlyNotOnTheMachinesOtherAddresses() throws Exception {
    List<InetAddress> others = otherAddresses();
    assumeFalse(others.isEmpty(), "this machine has no address but loopback to try");
    int port = LoopbackPorts.next();
    HazelcastInstance member =
        SharedState.start(
            new SharedStateOptions(
                SharedStateOptions.Mode.EMBEDDED,
                "embedded-" + UUID.randomUUID(),
                List.of(),
                null,
                port,
                null,
                null));
    try {
      InetSocketAddress bound =
          (InetSocketAddress) member.getCluster().getLocalMember().getSocketAddress();
      assertThat(bound.getAddress().getHostAddress()).isEqualTo("127.0.0.1");
      try (Socket loopback = new Socket()) {
        loopback.connect(new InetSocketAddress("127.0.0.1", bound.getPort()), 2_000);
        assertThat(loopback.isConnected()).isTrue();
      }
      for (InetAddress other : others) {
        assertThatThrownBy(
                () -> {
                  try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(other, bound.getPort()), 2_000);
                  }
                })
            .as("a connection to %s:%d", other.getHostAddress(), bound.getPort())
            .isInstanceOf(IOException.class);
      }
    } finally {
      member.shutdown();
    }
  }

  @Test
  void anEmbeddedMemberInAPodWarnsThatTheAgentSharesItsLoopback() {
    SharedStateOptions embedded = SharedStateOptions.DEFAULT;
    SharedStateOptions local =
        new SharedStateOptions(SharedStateOptions.Mode.LOCAL, null, null, null, null, null, null);
    Map<String, String> pod = Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1");

    assertThat(HazelcastStores.podWarning(embedded, pod))
        .hasValueSatisfying(warning -> assertThat(warning).contains("the agent's included"));
    assertThat(HazelcastStores.podWarning(embedded, Map.of())).isEmpty();
    assertThat(HazelcastStores.podWarning(local, pod)).isEmpty();
  }
}
