package dev.toolgate.sidecar.state.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.model.SessionQuota;
import dev.toolgate.policy.quota.QuotaVerdict;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The combined compare-and-set of a session's counters, on a real Hazelcast member. */
class HazelcastQuotaStoreIT {

  private Vertx vertx;
  private HazelcastInstance member;
  private HazelcastQuotaStore store;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    member = LoopbackMember.start("quota");
    store = new HazelcastQuotaStore(vertx, member);
  }

  @AfterEach
  void stop() throws Exception {
    member.shutdown();
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private List<QuotaVerdict> burst(int calls, Quotas quotas) throws Exception {
    List<Future<QuotaVerdict>> futures = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (int i = 0; i < calls; i++) {
      futures.add(store.consume("s1", "agent-1", false, quotas, now));
    }
    List<QuotaVerdict> verdicts = new ArrayList<>();
    for (Future<QuotaVerdict> f : futures) {
      verdicts.add(f.await(30, TimeUnit.SECONDS));
    }
    return verdicts;
  }

  @Test
  void aBurstOfOneSessionsCallsIsCountedExactlyWithoutOvershoot() throws Exception {
    Quotas quotas = new Quotas(new SessionQuota(150, 15), null, 1_000_000, null, null);

    List<QuotaVerdict> verdicts = burst(400, quotas);

    assertThat(verdicts.stream().filter(QuotaVerdict::allowed)).hasSize(150);
    assertThat(verdicts.stream().filter(v -> !v.allowed()))
        .hasSize(250).allSatisfy(v -> assertThat(v.limitName()).isEqualTo("quotas.perSession.read"));
    assertThat(UsageJson.usage(member.<String, String>getMap(HazelcastQuotaStore.SESSIONS).get("s1")).reads())
        .isEqualTo(150);
  }

  @Test
  void twoReplicasTakingTurnsOnASessionSeeEachOthersCounts() throws Exception {
    HazelcastQuotaStore other = new HazelcastQuotaStore(vertx, member);
    Quotas quotas = new Quotas(new SessionQuota(10, 15), null, 1_000_000, null, null);
    List<Boolean> allowed = new ArrayList<>();
    for (int i = 0; i < 14; i++) {
      HazelcastQuotaStore replica = i % 2 == 0 ? store : other;
      allowed.add(replica.consume("s1", "agent-1", false, quotas, System.currentTimeMillis())
          .await(10, TimeUnit.SECONDS).allowed());
    }

    assertThat(allowed.subList(0, 10)).containsOnly(true);
    assertThat(allowed.subList(10, 14)).as("each replica's remembered value was stale: re-read, refused")
        .containsOnly(false);
    assertThat(UsageJson.usage(member.<String, String>getMap(HazelcastQuotaStore.SESSIONS).get("s1")).reads())
        .isEqualTo(10);
  }

  @Test
  void aResetIsSeenByTheReplicaThatRemembersTheOldCount() throws Exception {
    Quotas quotas = new Quotas(new SessionQuota(3, 15), null, 1_000_000, null, null);
    burst(3, quotas);
    new HazelcastQuotaStore(vertx, member).reset("s1").await(10, TimeUnit.SECONDS);

    assertThat(store.consume("s1", "agent-1", false, quotas, System.currentTimeMillis())
        .await(10, TimeUnit.SECONDS).allowed()).isTrue();
  }

  @Test
  void givesTheAgentBackWhatTheSessionRefused() throws Exception {
    Quotas quotas = new Quotas(new SessionQuota(100, 15), new SessionQuota(1_000, 100), 1_000_000, null, null);

    List<QuotaVerdict> verdicts = burst(130, quotas);

    assertThat(verdicts.stream().filter(QuotaVerdict::allowed)).hasSize(100);
    assertThat(UsageJson.usage(member.<String, String>getMap(HazelcastQuotaStore.AGENTS).get("agent-1")).reads())
        .as("the agent's total counts only what its sessions let through").isEqualTo(100);
  }

  @Test
  void theAgentsLimitRefusesBeforeTheSessionCounts() throws Exception {
    Quotas quotas = new Quotas(new SessionQuota(100, 15), new SessionQuota(40, 100), 1_000_000, null, null);

    List<QuotaVerdict> verdicts = burst(60, quotas);

    assertThat(verdicts.stream().filter(QuotaVerdict::allowed)).hasSize(40);
    assertThat(verdicts.stream().filter(v -> !v.allowed()))
        .allSatisfy(v -> assertThat(v.limitName()).isEqualTo("quotas.perAgent.read"));
    assertThat(UsageJson.usage(member.<String, String>getMap(HazelcastQuotaStore.SESSIONS).get("s1")).reads())
        .isEqualTo(40);
  }
}
