package dev.toolgate.sidecar.state;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With two members and one backup, losing a member loses no count. */
class MemberLossIT {

  @TempDir Path dir;
  private HazelcastInstance first;
  private HazelcastInstance second;
  private SidecarFixture f;

  @AfterEach
  void stop() throws Exception {
    if (f != null) {
      f.close();
    }
    for (HazelcastInstance m : new HazelcastInstance[] {first, second}) {
      if (m != null && m.getLifecycleService().isRunning()) {
        m.shutdown();
      }
    }
  }

  private static HazelcastInstance member(String cluster, int port, String peer) {
    Config config = new Config().setClusterName(cluster);
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.getNetworkConfig().setPort(port).setPortAutoIncrement(true).setPortCount(100);
    config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
    config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
    config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
    config.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true);
    if (peer != null) {
      config.getNetworkConfig().getJoin().getTcpIpConfig().addMember(peer);
    }
    return Hazelcast.newHazelcastInstance(config);
  }

  @Test
  void losingOneOfTwoMembersLosesNoWriteCount() throws Exception {
    String cluster = "toolgate-loss-" + UUID.randomUUID();
    first = member(cluster, 5851, null);
    second =
        member(
            cluster,
            5851,
            "127.0.0.1:" + first.getCluster().getLocalMember().getAddress().getPort());
    String addresses =
        first.getCluster().getMembers().stream()
            .map(m -> "\"127.0.0.1:" + m.getAddress().getPort() + "\"")
            .reduce((x, y) -> x + ", " + y)
            .orElseThrow();
    assertThat(first.getCluster().getMembers()).hasSize(2);
    f =
        SidecarFixture.start(
            dir,
            Map.of(),
            "tools:\n  - {name: restart_deployment_job, upstream: deployment-api, effect: idempotent_write,"
                + " idempotency: {keyComponents: [intent_id, /job_id]}}\n"
                + "sharedState: {mode: client, clusterName: "
                + cluster
                + ", members: ["
                + addresses
                + "]}\n");
    String session = f.initialize(API);

    int ok = 0;
    for (int i = 0; i < 20; i++) {
      if (i == 8) {
        first.getLifecycleService().terminate();
      }
      String body =
          f.send(
                  f.post(
                          API,
                          SidecarFixture.toolCall(
                              i,
                              "restart_deployment_job",
                              "{\"job_id\":\"j" + i + "\",\"environment\":\"prod\"}",
                              "{\"dev.toolgate/intent-id\":\"i" + i + "\"}"))
                      .header("Mcp-Session-Id", session))
              .body();
      if (!new JsonObject(body).getJsonObject("result").getBoolean("isError")) {
        ok++;
      }
    }

    assertThat(ok).as("exactly the write quota, across the member's loss").isEqualTo(15);
    assertThat(f.backend.ledger().operationsPerformed("restart_deployment_job")).isEqualTo(15);
  }
}
