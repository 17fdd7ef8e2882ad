package dev.toolgate.sidecar.state.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.impl.MapDataSerializerHook;
import dev.toolgate.e2e.support.LoopbackPorts;
import dev.toolgate.policy.config.SharedStateOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * A member started from the sidecar's jar, whose service file lists only a client's serializer
 * hooks (its members load Hazelcast's through {@link MemberSerializerHooks}), still runs what
 * another member sends it: operations on the partitions it owns, their backups, and the migrations
 * when the other member leaves.
 */
class JarMemberIT {

  private static final Path JAR = Path.of("target", "toolgate-sidecar.jar");
  private static final int ENTRIES = 500;

  private static List<String> jarServiceFile() throws IOException {
    try (ZipFile zip = new ZipFile(JAR.toFile());
        InputStream in = zip.getInputStream(zip.getEntry(MemberSerializerHooks.SERVICE_FILE))) {
      return HookLists.names(in);
    }
  }

  @Test
  void aMemberFromTheJarServesAnotherMembersOperationsBackupsAndMigrations() throws Exception {
    assertThat(JAR).as("built by the package phase").exists();
    assertThat(jarServiceFile())
        .as("the jar lists a client's hooks, not the map's")
        .isNotEmpty()
        .doesNotContain(MapDataSerializerHook.class.getName());
    String cluster = "jar-member-" + UUID.randomUUID();
    String childAddress = "127.0.0.1:" + LoopbackPorts.next();
    Map<String, String> written = new HashMap<>();
    for (int i = 0; i < ENTRIES; i++) {
      written.put("session-" + i, "count-" + i);
    }

    try (TrainingMember child =
        TrainingMember.start(
            JAR.toAbsolutePath().toString(), childAddress, cluster, Duration.ofSeconds(60))) {
      HazelcastInstance here =
          SharedState.start(
              new SharedStateOptions(
                  SharedStateOptions.Mode.EMBEDDED,
                  cluster,
                  List.of(childAddress),
                  null,
                  LoopbackPorts.next(),
                  null,
                  null));
      try {
        await("the two members form one cluster")
            .atMost(Duration.ofSeconds(60))
            .until(() -> here.getCluster().getMembers().size() == 2);
        IMap<String, String> map = here.getMap(HazelcastQuotaStore.SESSIONS);
        // Two kinds of operation reach the jar's member: one batch per partition, then one per
        // entry.
        map.putAll(written);
        written.forEach(map::set);

        long ownedByTheChild =
            written.keySet().stream()
                .filter(
                    key -> !here.getPartitionService().getPartition(key).getOwner().localMember())
                .count();
        assertThat(ownedByTheChild).as("entries the jar's member owns").isPositive();
        assertThat(map.getAll(written.keySet())).isEqualTo(written);
      } finally {
        here.shutdown();
      }

      ClientConfig config = new ClientConfig().setClusterName(cluster);
      config.getNetworkConfig().addAddress(childAddress);
      HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
      try {
        IMap<String, String> alone = client.getMap(HazelcastQuotaStore.SESSIONS);
        assertThat(alone.getAll(written.keySet()))
            .as("every entry, on the jar's member alone")
            .isEqualTo(written);
      } finally {
        client.shutdown();
      }
    }
  }
}
