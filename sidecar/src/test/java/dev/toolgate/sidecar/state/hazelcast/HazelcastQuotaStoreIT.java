package dev.toolgate.sidecar.state.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.model.SessionQuota;
import dev.toolgate.policy.quota.QuotaVerdict;
import dev.toolgate.policy.quota.RateWindow;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The combined compare-and-set of a session's counters and its read leases, on a real Hazelcast
 * member.
 */
class HazelcastQuotaStoreIT {

  private static final long T0 = 1_800_000_000_000L;

  /** Limits a test does not reach: only the leases' own behaviour shows. */
  private static final Quotas ROOMY =
      new Quotas(new SessionQuota(1_000, 15), null, 1_000_000, null, null, 1_000_000);

  /**
   * After a session's last read, when the sweep gives back what its lease kept: past the pause it
   * is kept through.
   */
  private static final long SWEPT = (ReadLease.PAUSE_MEMORY_SECONDS + 2) * 1_000L;

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
        .hasSize(250)
        .allSatisfy(v -> assertThat(v.limitName()).isEqualTo("quotas.perSession.read"));
    assertThat(
            UsageJson.usage(member.<String, String>getMap(HazelcastQuotaStore.SESSIONS).get("s1"))
                .reads())
        .isEqualTo(150);
  }

  @Test
  void twoReplicasSharingASessionNeverCountMoreThanItsQuotaAndLoseNothing() throws Exception {
    HazelcastQuotaStore other = new HazelcastQuotaStore(vertx, member);
    Quotas quotas = new Quotas(new SessionQuota(30, 15), null, 1_000_000, null, null);
    int allowed = 0;
    for (int i = 0; i < 10; i++) {
      allowed += read(store, quotas, T0 + i) ? 1 : 0;
    }
    while (read(other, quotas, T0 + 100)) {
      allowed++;
    }
    assertThat(storedReads()).as("counted, leases included, never over the quota").isEqualTo(30);
    assertThat(allowed)
        .as(
            "refused early by what the first replica's lease still holds: ten reads grew it"
                + " to 1, 2, then 4 reads, so at most 4")
        .isLessThan(30)
        .isGreaterThanOrEqualTo(30 - 4);

    store.expire(T0 + SWEPT, 3_600_000);
    other.expire(T0 + SWEPT, 3_600_000);
    int servedBefore = allowed;
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(storedReads()).isEqualTo(servedBefore));
    while (read(other, quotas, T0 + SWEPT + 1_000)) {
      allowed++;
    }

    assertThat(allowed)
        .as("what the leases held came back: the whole quota, not one read more")
        .isEqualTo(30);
  }

  @Test
  void aSteadySessionCostsAboutOneRoundTripPerSecond() throws Exception {
    for (int i = 0; i < 20; i++) {
      assertThat(read(store, ROOMY, T0 + i * 40L)).isTrue();
    }
    long versionAfterFirstSecond = version();

    for (int second = 1; second <= 3; second++) {
      for (int i = 0; i < 20; i++) {
        assertThat(read(store, ROOMY, T0 + second * 1_000L + i * 40L)).isTrue();
      }
    }

    assertThat(version() - versionAfterFirstSecond)
        .as("compare-and-sets for 60 reads in 3 seconds")
        .isEqualTo(3);
    store.expire(T0 + 3_000 + SWEPT, 3_600_000);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(storedReads()).isEqualTo(80));
  }

  @Test
  void aSteadySessionsReadsAtANewSecondAreAnsweredAtOnceFromALeaseRolledAhead() throws Exception {
    for (int i = 0; i < 20; i++) {
      assertThat(read(store, ROOMY, T0 + i * 50L)).isTrue();
      if (i == 16) {
        awaitRolledAhead();
      }
    }

    long waitsAfterFirstSecond = store.waits();
    for (int second = 1; second <= 3; second++) {
      long versionBefore = version();
      for (int i = 0; i < 20; i++) {
        Future<QuotaVerdict> verdict =
            store.consume("s1", "agent-1", false, ROOMY, T0 + second * 1_000L + i * 50L);
        assertThat(verdict.isComplete())
            .as("read %d of second %d answered from the lease, at once", i, second)
            .isTrue();
        assertThat(verdict.result().allowed()).isTrue();
        if (i == 16) {
          awaitRolledAhead();
        }
      }
      assertThat(version() - versionBefore)
          .as("compare-and-sets in second %d: the roll-ahead and its rest", second)
          .isLessThanOrEqualTo(2);
    }
    assertThat(store.waits() - waitsAfterFirstSecond)
        .as("checks that waited for a round trip")
        .isZero();

    store.expire(T0 + 3_000 + SWEPT, 3_600_000);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(storedReads())
                    .as(
                        "what was reserved ahead and not used came back: the 80 reads served, not one more")
                    .isEqualTo(80));
    RateWindow rate = UsageJson.usage(sessionsMap().get("s1")).rate();
    assertThat(IntStream.of(rate.counts()).sum() + rate.ahead())
        .as("and the same in the rate window")
        .isEqualTo(80);
  }

  @Test
  void aSessionReadingTwoThousandTimesASecondNeverWaitsOnceItsLeaseIsFull() throws Exception {
    Quotas roomier = new Quotas(new SessionQuota(100_000, 15), null, 1_000_000, null, null);
    for (int i = 0; i < 2_000; i++) {
      assertThat(read(store, roomier, T0 + i / 2)).isTrue();
      awaitBackgroundRoundTrips();
    }

    for (int second = 1; second <= 2; second++) {
      for (int i = 0; i < 2_000; i++) {
        Future<QuotaVerdict> verdict =
            store.consume("s1", "agent-1", false, roomier, T0 + second * 1_000L + i / 2);
        assertThat(verdict.isComplete())
            .as("read %d of second %d answered from the lease, at once", i, second)
            .isTrue();
        assertThat(verdict.result().allowed()).isTrue();
        awaitBackgroundRoundTrips();
      }
    }

    store.expire(T0 + 2_000 + SWEPT, 3_600_000);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(storedReads())
                    .as("what was reserved and not used came back")
                    .isEqualTo(6_000));
  }

  @Test
  void aSmallLeaseRolledAheadThatRunsDryBeforeItsSecondIsRefilledAheadAndDoubles()
      throws Exception {
    assertThat(read(store, ROOMY, T0)).isTrue();
    assertThat(read(store, ROOMY, T0 + 850)).isTrue();
    assertThat(read(store, ROOMY, T0 + 860))
        .as("takes the one read reserved, and claims the roll-ahead")
        .isTrue();
    awaitRolledAhead();
    awaitBackgroundRoundTrips();
    long waitsBefore = store.waits();

    for (int i = 0; i < 12; i++) {
      assertThat(read(store, ROOMY, T0 + 870 + i * 10L)).isTrue();
      awaitBackgroundRoundTrips();
    }

    assertThat(store.waits() - waitsBefore)
        .as(
            "12 reads late in the second: the 4 rolled ahead, then one round trip that reserves 8 more ahead")
        .isEqualTo(1);
    store.expire(T0 + 1_000 + SWEPT, 3_600_000);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(storedReads()).isEqualTo(15));
  }

  /**
   * Lets the top-ups and roll-ahead a read claimed land before the next read, as time would in a
   * real second.
   */
  private void awaitBackgroundRoundTrips() {
    if (store.draining("s1")) {
      await()
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(1))
          .atMost(Duration.ofSeconds(10))
          .until(() -> !store.draining("s1"));
    }
  }

  /**
   * Waits for the roll-ahead the last read claimed: the next second's reads counted ahead in the
   * entry.
   */
  private void awaitRolledAhead() {
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(UsageJson.usage(sessionsMap().get("s1")).rate().ahead())
                    .as("reads counted ahead")
                    .isPositive());
  }

  @Test
  void countsTheChecksThatWaitedForARoundTrip() throws Exception {
    for (int i = 0; i < 4; i++) {
      assertThat(read(store, ROOMY, T0 + i)).isTrue();
    }
    assertThat(
            store
                .consume("s1", "agent-1", true, ROOMY, T0 + 5)
                .await(10, TimeUnit.SECONDS)
                .allowed())
        .isTrue();

    // A new lease: reads 1 and 2 ask (the second reserves one more), read 3 takes it, read 4 asks
    // (and reserves two); a write always asks.
    assertThat(store.waits()).isEqualTo(4);
  }

  @Test
  void aBurstAfterAPauseIsAnsweredAtOnceFromWhatTheLeaseKeptAndWhatItsMoveReserves()
      throws Exception {
    for (int i = 0; i < 100; i++) {
      assertThat(read(store, ROOMY, T0 + i * 5L)).isTrue();
    }
    awaitBackgroundRoundTrips();
    store.expire(T0 + 3_000, 3_600_000);
    int kept = storedReads() - 100;
    assertThat(kept).as("reads the first burst's lease kept through the pause").isPositive();
    long waitsBefore = store.waits();

    long back = T0 + 4_000;
    Future<QuotaVerdict> first = store.consume("s1", "agent-1", false, ROOMY, back);
    assertThat(first.isComplete()).as("the first read after the pause, answered at once").isTrue();
    assertThat(first.result().allowed()).isTrue();
    awaitBackgroundRoundTrips();
    for (int i = 1; i < 100; i++) {
      assertThat(read(store, ROOMY, back + i * 5L)).isTrue();
    }

    assertThat(store.waits() - waitsBefore)
        .as("the %d kept reads, and the lease filled to the first burst's size by their move", kept)
        .isZero();
    assertThat(read(store, ROOMY, back + 500)).isTrue();
    assertThat(store.waits() - waitsBefore)
        .as("the burst grew past the first one's size")
        .isEqualTo(1);
    store.expire(back + SWEPT, 3_600_000);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(storedReads()).isEqualTo(201));
  }

  @Test
  void readsKeptThroughAPauseAreMovedToTheSecondTheyAreServedInWithTheRestOfTheLeaseReservedThere()
      throws Exception {
    tenReadsInOneSecondAndTheirRoundTrips();
    int counted = storedReads();
    int kept = counted - 10;
    long back = T0 + 5_000;

    assertThat(read(store, ROOMY, back)).isTrue();
    awaitBackgroundRoundTrips();

    int reserved = 10 - kept;
    assertThat(storedReads())
        .as("the %d kept moved, not counted again, and %d reserved", kept, reserved)
        .isEqualTo(counted + reserved);
    RateWindow rate = UsageJson.usage(sessionsMap().get("s1")).rate();
    assertThat(rate.counts()[(int) Math.floorMod(back / 1_000, 60L)])
        .as("in the second they are served in: a lease of the ten served in second T0")
        .isEqualTo(10);
    assertThat(rate.counts()[(int) Math.floorMod(T0 / 1_000, 60L)])
        .as("left in their old one: the ten served there")
        .isEqualTo(10);
  }

  @Test
  void aSessionCalledEveryFewSecondsWaitsAtItsFirstTwoReadsOnly() throws Exception {
    long waitsBefore = store.waits();
    long last = T0;
    for (int i = 0; i < 10; i++) {
      last = T0 + i * 4_000L;
      assertThat(read(store, ROOMY, last)).isTrue();
      awaitBackgroundRoundTrips();
    }

    assertThat(store.waits() - waitsBefore)
        .as("the first read, and the second: the first one's second had no more")
        .isEqualTo(2);
    assertThat(storedReads()).as("ten served, one in hand").isEqualTo(11);
    store.expire(last + SWEPT, 3_600_000);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(storedReads()).isEqualTo(10));
  }

  @Test
  void theSweepLeavesAPausedSessionsKeptReadsAndGivesThemBackOncePastThePause() throws Exception {
    tenReadsInOneSecondAndTheirRoundTrips();
    int counted = storedReads();

    store.expire(T0 + ReadLease.PAUSE_MEMORY_SECONDS * 1_000L, 3_600_000);
    await()
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(2))
        .untilAsserted(
            () ->
                assertThat(storedReads())
                    .as("kept through a pause of %d s", ReadLease.PAUSE_MEMORY_SECONDS)
                    .isEqualTo(counted));

    store.expire(T0 + SWEPT, 3_600_000);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(storedReads()).isEqualTo(10));
  }

  @Test
  void aMoveThatFailsGivesTheKeptReadsUpAndLeavesTheSessionFreeToAsk() throws Exception {
    tenReadsInOneSecondAndTheirRoundTrips();
    member.shutdown();
    long back = T0 + 5_000;

    assertThat(store.consume("s1", "agent-1", false, ROOMY, back).isComplete())
        .as("carried: answered at once")
        .isTrue();
    awaitBackgroundRoundTrips();
    long waitsBefore = store.waits();
    Future<QuotaVerdict> next = store.consume("s1", "agent-1", false, ROOMY, back + 1);

    // Counted before consume returns; a completed future alone would not tell, the member being
    // gone
    // fails the round trip as fast as a kept read would have answered.
    assertThat(store.waits() - waitsBefore)
        .as("no kept read handed out after the failed move")
        .isEqualTo(1);
    await().atMost(Duration.ofSeconds(10)).until(next::failed);
    awaitBackgroundRoundTrips();
    assertThat(store.draining("s1")).as("nothing left queued for the session").isFalse();
  }

  @Test
  void theSweepGivesBackManySessionsReadsOneAtATimeWhileALiveSessionsWriteGoesAhead()
      throws Exception {
    int sparse = 1_000;
    for (int i = 0; i < sparse; i++) {
      String session = "sparse-" + i;
      store.consume(session, "agent-1", false, ROOMY, T0).await(10, TimeUnit.SECONDS);
      store.consume(session, "agent-1", false, ROOMY, T0 + 4_000).await(10, TimeUnit.SECONDS);
    }
    assertThat(readsOfSparseSessions(sparse))
        .as("each served two, holds one more")
        .isEqualTo(3 * sparse);

    store.expire(T0 + 4_000 + SWEPT, 3_600_000);
    Future<QuotaVerdict> write = store.consume("live", "agent-1", true, ROOMY, T0 + 4_000 + SWEPT);
    assertThat(write.await(10, TimeUnit.SECONDS).allowed()).isTrue();

    assertThat(readsOfSparseSessions(sparse))
        .as("the sweep still giving back when the write was counted")
        .isGreaterThan(2 * sparse);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(readsOfSparseSessions(sparse)).isEqualTo(2 * sparse));
  }

  private int readsOfSparseSessions(int sessions) {
    Set<String> keys =
        IntStream.range(0, sessions).mapToObj(i -> "sparse-" + i).collect(Collectors.toSet());
    return sessionsMap().getAll(keys).values().stream()
        .mapToInt(v -> UsageJson.usage(v).reads())
        .sum();
  }

  @Test
  void readsKeptLongerThanAPauseAreGivenBackAndTheNextReadWaits() throws Exception {
    tenReadsInOneSecondAndTheirRoundTrips();
    long waitsBefore = store.waits();

    assertThat(read(store, ROOMY, T0 + (ReadLease.PAUSE_MEMORY_SECONDS + 1) * 1_000L)).isTrue();

    assertThat(store.waits() - waitsBefore).isEqualTo(1);
    assertThat(storedReads()).as("the ten, the late read, and nothing kept").isEqualTo(11);
  }

  @Test
  void aBusySessionsFullLeaseIsToppedUpBeforeItRunsOutSoItsReadsNeverWait() throws Exception {
    Quotas roomier = new Quotas(new SessionQuota(100_000, 15), null, 1_000_000, null, null);
    int busy = ReadLease.MAX_EXTRA + 10;
    for (int i = 0; i < busy; i++) {
      assertThat(read(store, roomier, T0 + i / 2)).isTrue();
    }
    awaitBackgroundRoundTrips();
    long now = T0 + 1_000;
    assertThat(read(store, roomier, now))
        .as("a new second's first read, from what the lease kept")
        .isTrue();
    awaitBackgroundRoundTrips();
    int served = busy + 1;
    int held = storedReads() - served;
    assertThat(held)
        .as("the lease kept: above its top-up mark")
        .isBetween(ReadLease.TOP_UP_LEFT + 1, ReadLease.MAX_EXTRA);
    for (int i = 0; i < held - ReadLease.TOP_UP_LEFT; i++) {
      assertThat(store.consume("s1", "agent-1", false, roomier, now).isComplete()).isTrue();
      served++;
    }
    int servedThen = served;
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(storedReads())
                    .as("down to its top-up mark: topped up to a full lease")
                    .isEqualTo(servedThen + ReadLease.MAX_EXTRA));

    for (int round = 0; round < 10; round++) {
      long versionBefore = version();
      for (int i = 0; i < ReadLease.MAX_EXTRA - ReadLease.TOP_UP_LEFT; i++) {
        Future<QuotaVerdict> verdict = store.consume("s1", "agent-1", false, roomier, now + round);
        assertThat(verdict.isComplete())
            .as("read %d of round %d answered from the lease, at once", i, round)
            .isTrue();
        assertThat(verdict.result().allowed()).isTrue();
        served++;
      }
      int servedSoFar = served;
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(storedReads())
                      .as("topped up in the background, back to a full lease and no further")
                      .isEqualTo(servedSoFar + ReadLease.MAX_EXTRA));
      assertThat(version() - versionBefore).as("one compare-and-set per top-up").isEqualTo(1);
    }

    store.expire(now + SWEPT, 3_600_000);
    int servedInAll = served;
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(storedReads()).isEqualTo(servedInAll));
  }

  @Test
  void theRateWindowCountsOnlyTheReadsServed() throws Exception {
    Quotas quotas = new Quotas(new SessionQuota(1_000, 15), null, 30, null, null);
    for (int i = 0; i < 12; i++) {
      assertThat(read(store, quotas, T0 + i * 10L)).isTrue();
    }

    int nextSecond = 0;
    QuotaVerdict refusal;
    while ((refusal =
            store.consume("s1", "agent-1", false, quotas, T0 + 1_000).await(10, TimeUnit.SECONDS))
        .allowed()) {
      nextSecond++;
    }

    assertThat(nextSecond)
        .as("30 per minute, 12 used: the lease's rest went back to its second")
        .isEqualTo(18);
    assertThat(refusal.limitName()).isEqualTo("quotas.ratePerMinute");
  }

  @Test
  void aResetDropsTheLeaseSoTheNextReadIsCountedAgain() throws Exception {
    tenReadsInOneSecond();

    store.reset("s1").await(10, TimeUnit.SECONDS);
    read(store, ROOMY, T0 + 20);

    assertThat(storedReads()).isEqualTo(1);
  }

  @Test
  void aClosingReplicaGivesBackWhatItsLeasesHold() throws Exception {
    tenReadsInOneSecond();
    assertThat(storedReads()).as("a lease holds reads not yet served").isGreaterThan(10);

    store.close().await(10, TimeUnit.SECONDS);

    assertThat(storedReads()).isEqualTo(10);
  }

  @Test
  void aRefillThatEndsAfterCloseGivesItsReadsBackAtOnce() throws Exception {
    store.close().await(10, TimeUnit.SECONDS);

    for (int i = 0; i < 25; i++) {
      assertThat(read(store, ROOMY, T0 + i)).isTrue();
    }

    assertThat(storedReads())
        .as("the reads served and none held (an open replica's lease would hold 12 more)")
        .isEqualTo(25);
  }

  @Test
  void writesAreNeverLeased() throws Exception {
    tenReadsInOneSecond();
    long before = version();

    for (int i = 0; i < 3; i++) {
      store.consume("s1", "agent-1", true, ROOMY, T0 + 20 + i).await(10, TimeUnit.SECONDS);
    }

    assertThat(version() - before).isEqualTo(3);
    assertThat(UsageJson.usage(sessionsMap().get("s1")).writes()).isEqualTo(3);
  }

  @Test
  void aResetIsSeenByTheReplicaThatRemembersTheOldCount() throws Exception {
    Quotas quotas = new Quotas(new SessionQuota(3, 15), null, 1_000_000, null, null);
    burst(3, quotas);
    new HazelcastQuotaStore(vertx, member).reset("s1").await(10, TimeUnit.SECONDS);

    assertThat(
            store
                .consume("s1", "agent-1", false, quotas, System.currentTimeMillis())
                .await(10, TimeUnit.SECONDS)
                .allowed())
        .isTrue();
  }

  @Test
  void givesTheAgentBackWhatTheSessionRefused() throws Exception {
    Quotas quotas =
        new Quotas(new SessionQuota(100, 15), new SessionQuota(1_000, 100), 1_000_000, null, null);

    List<QuotaVerdict> verdicts = burst(130, quotas);

    assertThat(verdicts.stream().filter(QuotaVerdict::allowed)).hasSize(100);
    store.close().await(10, TimeUnit.SECONDS);
    assertThat(
            UsageJson.usage(
                    member.<String, String>getMap(HazelcastQuotaStore.AGENTS).get("agent-1"))
                .reads())
        .as(
            "the agent's total counts only what its sessions let through, once the replica gave"
                + " back its block of reads")
        .isEqualTo(100);
  }

  @Test
  void theAgentsLimitRefusesBeforeTheSessionCounts() throws Exception {
    Quotas quotas =
        new Quotas(new SessionQuota(100, 15), new SessionQuota(40, 100), 1_000_000, null, null);

    List<QuotaVerdict> verdicts = burst(60, quotas);

    assertThat(verdicts.stream().filter(QuotaVerdict::allowed)).hasSize(40);
    assertThat(verdicts.stream().filter(v -> !v.allowed()))
        .allSatisfy(v -> assertThat(v.limitName()).isEqualTo("quotas.perAgent.read"));
    store.close().await(10, TimeUnit.SECONDS);
    assertThat(
            UsageJson.usage(member.<String, String>getMap(HazelcastQuotaStore.SESSIONS).get("s1"))
                .reads())
        .as(
            "the session counts only the reads let through, once the replica gave back the reads"
                + " its lease held")
        .isEqualTo(40);
  }

  @Test
  void fortyOneWriteSessionsOfOneWorkloadOverTwoReplicasStopAtItsNewSessionRate() throws Exception {
    HazelcastQuotaStore other = new HazelcastQuotaStore(vertx, member);
    List<QuotaVerdict> verdicts = new java.util.ArrayList<>();

    for (int i = 0; i < 40; i++) {
      HazelcastQuotaStore replica = i % 2 == 0 ? store : other;
      verdicts.add(
          replica
              .consume("rotated-" + i, "workload-1", true, Quotas.DEFAULT, T0 + i)
              .await(10, TimeUnit.SECONDS));
    }

    assertThat(verdicts.stream().filter(QuotaVerdict::allowed))
        .hasSize(Quotas.DEFAULT_NEW_SESSIONS_PER_MINUTE);
    assertThat(verdicts.subList(30, 40))
        .allSatisfy(v -> assertThat(v.limitName()).isEqualTo("quotas.newSessionsPerMinute"));
    assertThat(
            UsageJson.usage(
                    member.<String, String>getMap(HazelcastQuotaStore.AGENTS).get("workload-1"))
                .writes())
        .as("the workload's write total counts what its sessions let through")
        .isEqualTo(30);
  }

  @Test
  void aWorkloadsWritesStopAtTenSessionsWorthWhateverSessionIdsItRotates() throws Exception {
    Quotas quotas = new Quotas(new SessionQuota(100, 2), null, 1_000_000, null, null, 1_000);
    int allowed = 0;
    QuotaVerdict last = null;
    for (int i = 0; i < 30; i++) {
      last =
          store.consume("w-" + i, "workload-2", true, quotas, T0 + i).await(10, TimeUnit.SECONDS);
      allowed += last.allowed() ? 1 : 0;
    }

    assertThat(allowed).isEqualTo(20);
    assertThat(last.limitName()).isEqualTo("quotas.perAgent.write");
    assertThat(last.limit()).isEqualTo(20);
  }

  @Test
  void aWorkloadsReadsOverTwoReplicasStopAtTenSessionsWorthWhateverSessionIdsItRotates()
      throws Exception {
    Quotas quotas = new Quotas(new SessionQuota(5, 1), null, 1_000_000, null, null, 1_000);
    int limit = 5 * Quotas.DEFAULT_WORKLOAD_SESSIONS;
    HazelcastQuotaStore other = new HazelcastQuotaStore(vertx, member);
    int allowed = 0;
    QuotaVerdict lastRefusal = null;
    for (int i = 0; i < 40; i++) {
      for (int read = 0; read < 5; read++) {
        HazelcastQuotaStore replica = i % 2 == 0 ? store : other;
        QuotaVerdict v =
            replica
                .consume("r-" + i, "workload-3", false, quotas, T0 + i)
                .await(10, TimeUnit.SECONDS);
        allowed += v.allowed() ? 1 : 0;
        lastRefusal = v.allowed() ? lastRefusal : v;
      }
    }
    store.close().await(10, TimeUnit.SECONDS);
    other.close().await(10, TimeUnit.SECONDS);

    assertThat(allowed)
        .as("never over the ceiling; under it by at most the blocks the replicas hold")
        .isBetween(limit - 2 * WorkloadReads.blockSize(quotas), limit);
    assertThat(lastRefusal.limitName()).isEqualTo("quotas.perAgent.read");
    assertThat(lastRefusal.limit()).isEqualTo(limit);
    assertThat(
            UsageJson.usage(
                    member.<String, String>getMap(HazelcastQuotaStore.AGENTS).get("workload-3"))
                .reads())
        .as("the workload's total, blocks given back, is what its sessions were served")
        .isEqualTo(allowed);
  }

  @Test
  void aBusyWorkloadsReadsAreServedFromItsBlockWhichIsToppedUpBeforeItRunsOut() throws Exception {
    Quotas quotas = new Quotas(new SessionQuota(1_000_000, 1), null, 1_000_000, null, null, 1_000);
    for (int i = 0; i < 3 * WorkloadReads.MAX_BLOCK; i++) {
      read(store, quotas, T0);
      awaitBackgroundRoundTrips();
    }
    long waitsBefore = store.waits();

    for (int i = 0; i < 2 * WorkloadReads.MAX_BLOCK; i++) {
      assertThat(read(store, quotas, T0 + 1)).isTrue();
      awaitBackgroundRoundTrips();
    }

    assertThat(store.waits() - waitsBefore)
        .as("reads that waited for a round trip, of %d", 2 * WorkloadReads.MAX_BLOCK)
        .isLessThanOrEqualTo(2);
  }

  /** Ten reads of session s1 within second T0 on {@code store}: its lease then holds a few more. */
  private void tenReadsInOneSecond() throws Exception {
    for (int i = 0; i < 10; i++) {
      read(store, ROOMY, T0 + i);
    }
  }

  /** {@link #tenReadsInOneSecond}, and the round trips they set off in the background landed. */
  private void tenReadsInOneSecondAndTheirRoundTrips() throws Exception {
    tenReadsInOneSecond();
    awaitBackgroundRoundTrips();
  }

  private static boolean read(HazelcastQuotaStore replica, Quotas quotas, long nowMs)
      throws Exception {
    return replica
        .consume("s1", "agent-1", false, quotas, nowMs)
        .await(10, TimeUnit.SECONDS)
        .allowed();
  }

  private IMap<String, String> sessionsMap() {
    return member.getMap(HazelcastQuotaStore.SESSIONS);
  }

  private int storedReads() {
    return UsageJson.usage(sessionsMap().get("s1")).reads();
  }

  /** The entry's version: one more per stored change. */
  private long version() {
    return sessionsMap().getEntryView("s1").getVersion();
  }
}
