package dev.toolgate.sidecar.config;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.toolgate.sidecar.Sidecar;
import dev.toolgate.sidecar.SidecarOptions;
import dev.toolgate.sidecar.support.RecordingEvents;
import dev.toolgate.sidecar.support.SidecarFixture;
import dev.toolgate.trust.ConfigSignatures;
import dev.toolgate.trust.SigningKey;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent tries to change its own policy: a forged, an unsigned, a tampered, a downgraded and a
 * replayed configuration, written where the sidecar reads (the file) and put into the shared state
 * with a plain Hazelcast client, as the agent on the same network could. Each is refused with its
 * reason, and the policy in force still asks for approval; a signed rollback is applied.
 */
class SignedConfigIT {

  private static final String KEY = "ops/deployment-tools";
  private static final String FAST_POLL = "runtime: {configPollMs: 50}\n";
  private static final SigningKey ATTACKER = SigningKey.generate("test-operator");

  @TempDir Path dir;
  private HazelcastInstance member;
  private HazelcastInstance agentsClient;
  private SidecarFixture f;
  private String cluster;
  private String sharedState;
  private String session;

  @BeforeEach
  void start() throws Exception {
    cluster = "signed-config-" + UUID.randomUUID();
    Config config = new Config().setClusterName(cluster);
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.getNetworkConfig().setPort(5801).setPortAutoIncrement(true).setPortCount(100);
    config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
    config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
    config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
    member = Hazelcast.newHazelcastInstance(config);
    int port = member.getCluster().getLocalMember().getAddress().getPort();
    sharedState =
        "sharedState: {mode: client, clusterName: "
            + cluster
            + ", members: [\"127.0.0.1:"
            + port
            + "\"], configKey: "
            + KEY
            + "}\n";
    f = SidecarFixture.start(dir, Map.of(), FAST_POLL + sharedState);
    session = f.initialize(API);
    ClientConfig client = new ClientConfig().setClusterName(cluster);
    client.getNetworkConfig().addAddress("127.0.0.1:" + port);
    agentsClient = HazelcastClient.newHazelcastClient(client);
  }

  @AfterEach
  void stop() throws Exception {
    if (agentsClient != null) {
      agentsClient.shutdown();
    }
    if (f != null) {
      f.close();
    }
    if (member != null) {
      member.shutdown();
    }
  }

  /** The demo policy with approvals off for the restart tool, at {@code revision}. */
  private String withoutApproval(long revision) throws Exception {
    return SidecarFixture.config(f.backend.mcpUrl(), Map.of(), FAST_POLL + sharedState, revision)
        .replace("approval: \"human_required\"", "approval: \"none\"");
  }

  private String sameAsRunning(long revision) throws Exception {
    return SidecarFixture.config(f.backend.mcpUrl(), Map.of(), FAST_POLL + sharedState, revision);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private JsonObject config() throws Exception {
    return new JsonObject(f.admin("/config"));
  }

  /** Offers {@code document} through {@code write} and waits for the refusal it must cause. */
  private JsonObject refusedAs(String outcome, Runnable write) throws Exception {
    String before = config().getString("hash");
    write.run();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                config().containsKey("lastRejected")
                    && outcome.equals(config().getJsonObject("lastRejected").getString("outcome")));
    JsonObject now = config();
    assertThat(now.getString("hash")).as("the configuration in force").isEqualTo(before);
    return now.getJsonObject("lastRejected");
  }

  private void putInSharedState(byte[] document) {
    agentsClient.getMap("toolgate.configs").put(KEY, text(document));
  }

  private void writeFile(byte[] document) {
    try {
      Files.write(f.configFile, document);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private String restartWithoutApproval(String intent) throws Exception {
    String body =
        f.send(
                f.post(
                        API,
                        SidecarFixture.toolCall(
                            "w-" + intent,
                            "restart_deployment_job",
                            "{\"job_id\":\"j1\",\"environment\":\"prod\"}",
                            "{\"dev.toolgate/intent-id\":\"" + intent + "\"}"))
                    .header("Mcp-Session-Id", session))
            .body();
    JsonObject result = new JsonObject(body).getJsonObject("result");
    JsonObject toolgate =
        result.getJsonObject("structuredContent", new JsonObject()).getJsonObject("toolgate");
    return toolgate == null ? "forwarded" : toolgate.getString("code");
  }

  @Test
  void forgedUnsignedAndTamperedConfigurationsInTheSharedStateAreRefusedAndApprovalStays()
      throws Exception {
    byte[] forged =
        ConfigSignatures.sign(withoutApproval(100).getBytes(), ATTACKER, 1L << 40, false);
    assertThat(refusedAs("bad_signature", () -> putInSharedState(forged)).getString("from"))
        .isEqualTo("shared state");

    byte[] unsigned = withoutApproval(100).getBytes(StandardCharsets.UTF_8);
    assertThat(refusedAs("unsigned", () -> putInSharedState(unsigned)).getString("message"))
        .contains("no signature line");

    String genuine = text(SidecarFixture.signed(sameAsRunning(2)));
    byte[] tampered =
        genuine
            .replace("approval: \"human_required\"", "approval: \"none\"          ")
            .getBytes(StandardCharsets.UTF_8);
    refusedAs("bad_signature", () -> putInSharedState(tampered));

    SigningKey stranger = SigningKey.generate("someone-else");
    byte[] strangers =
        ConfigSignatures.sign(withoutApproval(100).getBytes(), stranger, 1L << 40, false);
    refusedAs("unknown_key", () -> putInSharedState(strangers));

    JsonObject config = config();
    assertThat(config.getLong("revision")).isEqualTo(1);
    assertThat(config.getString("source")).isEqualTo("file");
    assertThat(restartWithoutApproval("after-forgeries")).isEqualTo("approval_required");
    assertThat(f.admin("/metrics"))
        .contains("toolgate_config_reloads_total{outcome=\"bad_signature\"} 2.0")
        .contains("toolgate_config_reloads_total{outcome=\"unsigned\"} 1.0")
        .contains("toolgate_config_reloads_total{outcome=\"unknown_key\"} 1.0")
        .doesNotContain("toolgate_config_reloads_total{outcome=\"applied\"}");
  }

  @Test
  void aDowngradeAndAReplayedOlderPublicationAreRefusedFromTheFileAndFromTheSharedState()
      throws Exception {
    byte[] older = SidecarFixture.signed(withoutApproval(5));
    byte[] current = SidecarFixture.signed(sameAsRunning(3));
    writeFile(current);
    await().atMost(Duration.ofSeconds(10)).until(() -> config().getLong("revision") == 3);

    refusedAs("stale", () -> putInSharedState(older));
    refusedAs("stale", () -> writeFile(older));
    byte[] downgrade = SidecarFixture.signed(withoutApproval(2));
    assertThat(refusedAs("downgrade", () -> putInSharedState(downgrade)).getString("message"))
        .contains("revision 2 is lower than the running revision 3 and not signed as a rollback");
    byte[] downgradeAgain = SidecarFixture.signed(withoutApproval(1));
    refusedAs("downgrade", () -> writeFile(downgradeAgain));

    assertThat(config().getLong("revision")).isEqualTo(3);
    assertThat(restartWithoutApproval("after-downgrades")).isEqualTo("approval_required");
  }

  @Test
  void aSignedRollbackToALowerRevisionIsAppliedAndConfigSaysWhereItCameFrom() throws Exception {
    writeFile(SidecarFixture.signed(sameAsRunning(4)));
    await().atMost(Duration.ofSeconds(10)).until(() -> config().getLong("revision") == 4);
    byte[] rollback =
        ConfigSignatures.sign(
            sameAsRunning(2).getBytes(StandardCharsets.UTF_8),
            SidecarFixture.CONFIG_KEY,
            System.currentTimeMillis(),
            true);

    putInSharedState(rollback);

    await().atMost(Duration.ofSeconds(10)).until(() -> config().getLong("revision") == 2);
    JsonObject config = config();
    assertThat(config.getString("source")).isEqualTo("shared state");
    assertThat(config.getJsonObject("signature").getString("keyId")).isEqualTo("test-operator");
    assertThat(config.getJsonObject("signature").getBoolean("rollback")).isTrue();
    assertThat(config.getString("trusts")).contains("test-operator");
  }

  @Test
  void aSidecarRefusesToStartOnAnUnsignedOrForgedFileSayingWhy() throws Exception {
    Path unsigned = dir.resolve("unsigned.yaml");
    Files.writeString(unsigned, sameAsRunning(1));
    Path forged = dir.resolve("forged.yaml");
    Files.write(forged, ConfigSignatures.sign(sameAsRunning(1).getBytes(), ATTACKER, 1, false));
    Vertx vertx = Vertx.vertx();
    try {
      assertThatThrownBy(() -> start(vertx, unsigned))
          .hasMessageContaining("not trusted: the document has no signature line");
      assertThatThrownBy(() -> start(vertx, forged))
          .hasMessageContaining("not trusted: the signature of key test-operator does not match");
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  private static Sidecar start(Vertx vertx, Path file) throws Exception {
    return Sidecar.start(
            vertx,
            new SidecarOptions(
                file, SidecarFixture.trust(), new RecordingEvents(), Clock.systemUTC()))
        .await(10, TimeUnit.SECONDS);
  }
}
