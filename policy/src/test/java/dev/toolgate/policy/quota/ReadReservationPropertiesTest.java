package dev.toolgate.policy.quota;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.model.SessionQuota;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A read lease is counted as its reads would have been one by one: reserving k reads, serving u of
 * them and giving the rest back leaves the usage that u single read calls would have left.
 */
class ReadReservationPropertiesTest {

  private static final long START_MS = 50_000_000;

  /** Limits these properties do not reach: only the counting shows. */
  private static final Quotas ROOMY =
      new Quotas(new SessionQuota(1_000, 10), null, 1_000, null, null);

  @Property
  void aReservationGrantsWhatSingleCallsWouldHaveBeenAllowed(
      @ForAll @IntRange(min = 1, max = 40) int readQuota,
      @ForAll @IntRange(min = 1, max = 40) int ratePerMinute,
      @ForAll @IntRange(min = 0, max = 60) int earlierReads,
      @ForAll @IntRange(min = 0, max = 40) int asked) {
    Quotas quotas = new Quotas(new SessionQuota(readQuota, 10), null, ratePerMinute, null, null);
    Usage before = history(earlierReads, quotas);
    long now = START_MS + 5_000;

    QuotaRules.Reservation reservation = QuotaRules.reserveReads(before, asked, quotas, now);

    QuotaRules.Reservation single = oneByOne(before, asked, quotas, now);
    assertThat(reservation.granted()).isEqualTo(single.granted());
    assertThat(reservation.next().reads()).isEqualTo(single.next().reads());
    assertThat(reservation.next().rate().inLastMinute(now))
        .isEqualTo(single.next().rate().inLastMinute(now));
  }

  @Property
  void servingSomeAndGivingBackTheRestEqualsCallingOneByOne(
      @ForAll @IntRange(min = 0, max = 60) int earlierReads,
      @ForAll @IntRange(min = 0, max = 40) int asked,
      @ForAll @IntRange(min = 0, max = 40) int served,
      @ForAll @IntRange(min = 0, max = 70) int laterSeconds) {
    Usage before = history(earlierReads, ROOMY);
    long now = START_MS + 5_000;
    QuotaRules.Reservation reservation = QuotaRules.reserveReads(before, asked, ROOMY, now);
    int used = Math.min(served, reservation.granted());

    Usage returned =
        QuotaRules.returnReads(reservation.next(), reservation.granted() - used, now / 1000);

    Usage single = oneByOne(before, used, ROOMY, now).next();
    long later = now + laterSeconds * 1000L;
    assertThat(returned.reads()).isEqualTo(single.reads());
    assertThat(returned.rate().inLastMinute(later)).isEqualTo(single.rate().inLastMinute(later));
  }

  @Property
  void readsReservedAheadAreInEveryMinuteTheyMayBeServedIn(
      @ForAll @IntRange(min = 1, max = 40) int readQuota,
      @ForAll @IntRange(min = 1, max = 40) int ratePerMinute,
      @ForAll @IntRange(min = 0, max = 60) int earlierReads,
      @ForAll @IntRange(min = 0, max = 40) int asked,
      @ForAll @IntRange(min = 0, max = 61) int laterSeconds) {
    Quotas quotas = new Quotas(new SessionQuota(readQuota, 10), null, ratePerMinute, null, null);
    Usage before = history(earlierReads, quotas);
    long now = START_MS + 5_800;

    QuotaRules.Reservation ahead = QuotaRules.reserveReadsAhead(before, asked, quotas, now);

    // Served now (early) or in the next second: as strict as single calls at either time.
    QuotaRules.Reservation servedNow = oneByOne(before, asked, quotas, now);
    QuotaRules.Reservation servedNext = oneByOne(before, asked, quotas, now + 1_000);
    assertThat(ahead.granted()).isLessThanOrEqualTo(servedNow.granted());
    assertThat(ahead.next().reads()).isEqualTo(before.reads() + ahead.granted());
    long later = now + laterSeconds * 1000L;
    int counted = ahead.next().rate().inLastMinute(later);
    Usage ifServedNow = oneByOne(before, ahead.granted(), quotas, now).next();
    Usage ifServedNext = oneByOne(before, ahead.granted(), quotas, now + 1_000).next();
    if (later < now + 60_000) {
      assertThat(counted).isGreaterThanOrEqualTo(ifServedNow.rate().inLastMinute(later));
    }
    if (later >= now + 1_000) {
      assertThat(counted).isGreaterThanOrEqualTo(ifServedNext.rate().inLastMinute(later));
    }
    assertThat(servedNext.granted()).isGreaterThanOrEqualTo(ahead.granted());
  }

  @Property
  void givingBackReadsReservedAheadLeavesNothingCounted(
      @ForAll @IntRange(min = 0, max = 60) int earlierReads,
      @ForAll @IntRange(min = 0, max = 40) int asked,
      @ForAll @IntRange(min = 0, max = 70) int laterSeconds) {
    Usage before = history(earlierReads, ROOMY);
    long now = START_MS + 5_800;
    QuotaRules.Reservation ahead = QuotaRules.reserveReadsAhead(before, asked, ROOMY, now);

    Usage returned = QuotaRules.returnReads(ahead.next(), ahead.granted(), now / 1000 + 1);

    long later = now + laterSeconds * 1000L;
    assertThat(returned.reads()).isEqualTo(before.reads());
    assertThat(returned.rate().inLastMinute(later)).isEqualTo(before.rate().inLastMinute(later));
  }

  @Property
  void readsKeptThroughAPauseAndMovedAreCountedAsIfReservedWhereTheyAreServed(
      @ForAll @IntRange(min = 0, max = 60) int earlierReads,
      @ForAll @IntRange(min = 0, max = 40) int asked,
      @ForAll @IntRange(min = 1, max = 10) int pauseSeconds,
      @ForAll @IntRange(min = 0, max = 70) int laterSeconds) {
    Usage before = history(earlierReads, ROOMY);
    long now = START_MS + 5_000;
    QuotaRules.Reservation kept = QuotaRules.reserveReads(before, asked, ROOMY, now);
    long back = now + pauseSeconds * 1000L;

    Usage moved = QuotaRules.moveReads(kept.next(), kept.granted(), now / 1000, back);

    Usage single = oneByOne(before, kept.granted(), ROOMY, back).next();
    long later = back + laterSeconds * 1000L;
    assertThat(moved.reads()).isEqualTo(kept.next().reads());
    assertThat(moved.rate().inLastMinute(later)).isEqualTo(single.rate().inLastMinute(later));
    // Before the move lands, the minute that ends where they are served already counts them.
    assertThat(kept.next().rate().inLastMinute(back)).isEqualTo(single.rate().inLastMinute(back));
  }

  /**
   * {@code reads} single read calls at {@code nowMs}: how many were allowed, and the usage they
   * left.
   */
  private static QuotaRules.Reservation oneByOne(
      Usage before, int reads, Quotas ROOMY, long nowMs) {
    Usage usage = before;
    int allowed = 0;
    for (int i = 0; i < reads; i++) {
      QuotaRules.Outcome o = QuotaRules.session(usage, false, ROOMY, nowMs);
      allowed += o.verdict().allowed() ? 1 : 0;
      usage = o.next();
    }
    return new QuotaRules.Reservation(allowed, usage);
  }

  /**
   * A session that made {@code reads} read calls, one every 100 ms, before {@code START_MS + 5 s}.
   */
  private static Usage history(int reads, Quotas ROOMY) {
    Usage u = Usage.fresh(START_MS);
    for (int i = 0; i < reads; i++) {
      u = QuotaRules.session(u, false, ROOMY, START_MS + i * 100L - reads * 100L + 5_000).next();
    }
    return u;
  }
}
