package dev.toolgate.policy.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.model.SessionQuota;
import dev.toolgate.policy.outcome.AgentCode;
import org.junit.jupiter.api.Test;

class QuotaRulesTest {

  private static final Quotas SEED =
      new Quotas(null, null, 1_000, null, null); // 200 reads, 15 writes

  private Usage usage;
  private long now = 10_000_000;

  private QuotaVerdict call(boolean write, Quotas quotas) {
    QuotaRules.Outcome o = QuotaRules.session(usage, write, quotas, now);
    usage = o.next();
    return o.verdict();
  }

  @Test
  void rejectsTheSixteenthWriteOfASession() {
    for (int i = 0; i < 15; i++) {
      assertThat(call(true, SEED).allowed()).isTrue();
    }

    QuotaVerdict sixteenth = call(true, SEED);

    assertThat(sixteenth.allowed()).isFalse();
    assertThat(sixteenth.code()).isEqualTo(AgentCode.QUOTA_EXCEEDED);
    assertThat(sixteenth.explain())
        .isEqualTo("quota reached: quotas.perSession.write is 15, 15 used");
    assertThat(usage.writes()).isEqualTo(15);
  }

  @Test
  void countsReadsApartFromWrites() {
    for (int i = 0; i < 15; i++) {
      call(true, SEED);
    }

    assertThat(call(false, SEED).allowed()).isTrue();
    assertThat(usage.reads()).isEqualTo(1);
  }

  @Test
  void forgetsAnIdleSession() {
    for (int i = 0; i < 15; i++) {
      call(true, SEED);
    }
    now += 3_600_000;

    assertThat(call(true, SEED).allowed()).isTrue();
    assertThat(usage.writes()).isEqualTo(1);
  }

  @Test
  void anAdministratorsRaiseAddsToTheQuota() {
    for (int i = 0; i < 15; i++) {
      call(true, SEED);
    }
    usage = usage.raised(0, 5);

    assertThat(call(true, SEED).allowed()).isTrue();
    assertThat(usage.writes()).isEqualTo(16);
  }

  @Test
  void theRateLimitStopsATightLoopLongBeforeTheQuota() {
    Quotas rate = new Quotas(new SessionQuota(10_000, 10_000), null, 60, null, null);
    int allowed = 0;
    for (int i = 0; i < 400; i++) {
      if (call(true, rate).allowed()) {
        allowed++;
      }
      now += 100;
    }

    assertThat(allowed).isEqualTo(60);
    QuotaVerdict blocked = call(true, rate);
    assertThat(blocked.code()).isEqualTo(AgentCode.RATE_LIMITED);
    assertThat(blocked.explain())
        .startsWith("rate limit reached: quotas.ratePerMinute is 60 calls per minute");
  }

  @Test
  void theSlidingMinuteLetsCallsThroughAgainAsItMoves() {
    Quotas rate = new Quotas(new SessionQuota(10_000, 10_000), null, 60, null, null);
    for (int i = 0; i < 60; i++) {
      call(false, rate);
    }
    assertThat(call(false, rate).allowed()).isFalse();

    now += 120_000;

    assertThat(call(false, rate).allowed()).isTrue();
  }

  @Test
  void capsAllSessionsOfAnAgentTogether() {
    Quotas agentCap = new Quotas(null, new SessionQuota(100, 2), null, null, null);
    Usage agent = null;
    int allowed = 0;
    for (int i = 0; i < 5; i++) {
      QuotaRules.Outcome o = QuotaRules.agent(agent, true, false, agentCap, now);
      agent = o.next();
      allowed += o.verdict().allowed() ? 1 : 0;
    }

    assertThat(allowed).isEqualTo(2);
  }

  @Test
  void withoutAPerAgentQuotaAWorkloadStillGetsTenSessionsWorthOfWritesAndOfReads() {
    Usage agent = null;
    int writes = 0;
    for (int i = 0; i < 200; i++) {
      QuotaRules.Outcome o = QuotaRules.agent(agent, true, false, Quotas.DEFAULT, now);
      agent = o.next();
      writes += o.verdict().allowed() ? 1 : 0;
    }
    QuotaRules.Outcome refused = QuotaRules.agent(agent, true, false, Quotas.DEFAULT, now);
    int reads = 0;
    for (int i = 0; i < 2_100; i++) {
      QuotaRules.Outcome o = QuotaRules.agent(agent, false, false, Quotas.DEFAULT, now);
      agent = o.next();
      reads += o.verdict().allowed() ? 1 : 0;
    }
    QuotaRules.Outcome readRefused = QuotaRules.agent(agent, false, false, Quotas.DEFAULT, now);

    assertThat(writes).isEqualTo(150);
    assertThat(refused.verdict().limitName()).isEqualTo("quotas.perAgent.write");
    assertThat(refused.verdict().limit()).isEqualTo(150);
    assertThat(reads).isEqualTo(2_000);
    assertThat(readRefused.verdict().limitName()).isEqualTo("quotas.perAgent.read");
    assertThat(readRefused.verdict().limit()).isEqualTo(2_000);
  }

  @Test
  void aWorkloadReadBlockStopsAtTheWorkloadsReadTotalAndGoesBackWhole() {
    Quotas quotas = new Quotas(null, new SessionQuota(100, 5), null, null, null);
    Usage agent = null;
    int granted = 0;
    for (int i = 0; i < 3; i++) {
      QuotaRules.Reservation r = QuotaRules.reserveWorkloadReads(agent, 40, quotas, now);
      agent = r.next();
      granted += r.granted();
    }
    Usage returned = QuotaRules.returnWorkloadReads(agent, 30);

    assertThat(granted).isEqualTo(100);
    assertThat(agent.reads()).isEqualTo(100);
    assertThat(returned.reads()).isEqualTo(70);
    assertThat(QuotaRules.agent(returned, false, false, quotas, now).verdict().allowed()).isTrue();
    assertThat(QuotaRules.returnWorkloadReads(returned, 500).reads()).isZero();
  }

  @Test
  void aWorkloadOpensAtMostNewSessionsPerMinuteWhateverIdsItSends() {
    Quotas quotas = new Quotas(null, null, null, null, null, 3);
    Usage agent = null;
    int opened = 0;
    for (int i = 0; i < 5; i++) {
      QuotaRules.Outcome o = QuotaRules.agent(agent, false, true, quotas, now);
      agent = o.verdict().allowed() ? o.next() : agent;
      opened += o.verdict().allowed() ? 1 : 0;
    }
    QuotaRules.Outcome refused = QuotaRules.agent(agent, false, true, quotas, now);
    QuotaRules.Outcome aMinuteLater = QuotaRules.agent(agent, false, true, quotas, now + 60_000);

    assertThat(opened).isEqualTo(3);
    assertThat(refused.verdict().limitName()).isEqualTo("quotas.newSessionsPerMinute");
    assertThat(refused.verdict().code()).isEqualTo(AgentCode.RATE_LIMITED);
    assertThat(refused.verdict().explain())
        .isEqualTo(
            "new-session limit reached: quotas.newSessionsPerMinute is 3, this workload opened 3"
                + " sessions in the last minute");
    assertThat(aMinuteLater.verdict().allowed()).isTrue();
    assertThat(QuotaRules.opensSession(null, quotas, now)).isTrue();
    assertThat(QuotaRules.opensSession(Usage.fresh(now), quotas, now + 1000)).isFalse();
    assertThat(QuotaRules.opensSession(Usage.fresh(now), quotas, now + 3_600_000)).isTrue();
  }

  @Test
  void aReservationStopsAtTheReadQuota() {
    Quotas small = new Quotas(new SessionQuota(10, 2), null, 1_000, null, null);
    for (int i = 0; i < 7; i++) {
      call(false, small);
    }

    QuotaRules.Reservation r = QuotaRules.reserveReads(usage, 8, small, now);

    assertThat(r.granted()).isEqualTo(3);
    assertThat(r.next().reads()).isEqualTo(10);
    assertThat(QuotaRules.reserveReads(r.next(), 8, small, now).granted()).isZero();
  }

  @Test
  void aReservationStopsAtTheRateLimit() {
    Quotas rate = new Quotas(new SessionQuota(10_000, 2), null, 5, null, null);
    call(false, rate);

    assertThat(QuotaRules.reserveReads(usage, 8, rate, now).granted()).isEqualTo(4);
  }

  @Test
  void givingBackReadsFreesTheQuotaAndTheRate() {
    Quotas rate = new Quotas(new SessionQuota(10, 2), null, 10, null, null);
    QuotaRules.Reservation r = QuotaRules.reserveReads(usage, 10, rate, now);
    usage = QuotaRules.returnReads(r.next(), 4, now / 1000);

    assertThat(usage.reads()).isEqualTo(6);
    for (int i = 0; i < 4; i++) {
      assertThat(call(false, rate).allowed()).isTrue();
    }
    assertThat(call(false, rate).allowed()).isFalse();
  }

  @Test
  void givingBackNeverGoesBelowZero() {
    Quotas quotas = new Quotas(new SessionQuota(10, 2), null, 10, null, null);
    call(false, quotas);

    Usage returned = QuotaRules.returnReads(usage, 5, now / 1000);

    assertThat(returned.reads()).isZero();
    assertThat(returned.rate().inLastMinute(now)).isZero();
  }

  @Test
  void movedReadsKeepTheirCountAndLeaveTheRateWindowWithTheSecondTheyAreServedIn() {
    Quotas rate = new Quotas(new SessionQuota(100, 2), null, 10, null, null);
    usage = QuotaRules.reserveReads(usage, 6, rate, now).next();
    long served = now + 5_000;

    usage = QuotaRules.moveReads(usage, 6, now / 1000, served);

    assertThat(usage.reads()).isEqualTo(6);
    assertThat(usage.rate().inLastMinute(served))
        .as("the minute that ends where they are served")
        .isEqualTo(6);
    assertThat(usage.rate().inLastMinute(now + 60_000))
        .as("a minute their old second has left")
        .isEqualTo(6);
    assertThat(usage.rate().inLastMinute(served + 60_000))
        .as("a minute their new second has left")
        .isZero();
  }

  @Test
  void movingReadsOfAResetSessionCountsNothingMore() {
    assertThat(QuotaRules.moveReads(null, 6, now / 1000, now + 5_000)).isNull();
  }

  @Test
  void refusesToReserveANegativeNumberOfReads() {
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
        .isThrownBy(() -> QuotaRules.reserveReads(null, -1, SEED, now))
        .withMessage("reads to reserve must be >= 0, was -1");
  }

  @Test
  void raisesAddUpToMaxExtraAndNeverWrapAQuotaNegative() {
    Usage u = Usage.fresh(now);
    for (int i = 0; i < 3; i++) {
      u = u.raised(Integer.MAX_VALUE, Integer.MAX_VALUE);
    }

    assertThat(u.extraReads()).isEqualTo(Usage.MAX_EXTRA);
    assertThat(u.extraWrites()).isEqualTo(Usage.MAX_EXTRA);
    assertThat(QuotaRules.session(u, true, Quotas.DEFAULT, now).verdict().allowed()).isTrue();
    assertThatThrownBy(() -> Usage.fresh(now).raised(-1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
  }
}
