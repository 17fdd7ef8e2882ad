package dev.toolgate.sidecar.state.hazelcast;

/**
 * One replica's read lease on one session: reads already counted in the shared entry, in one epoch
 * second, that this replica hands out without a round trip.
 *
 * <p>Algorithm: a lease belongs to the second its reads were counted in, so the shared rate window
 * stays exact to the second. When a refill is needed within the same second the session's demand
 * outgrew the lease, and the next one doubles ({@code 1, 2, 4 … MAX_EXTRA}); at a new second the
 * lease is sized to what its last second with reads served, and to one read at least, if that was
 * at most {@link #PAUSE_MEMORY_SECONDS} ago: an agent's calls come in bursts, and a burst after a
 * pause would otherwise start over at one read and wait for a round trip at each doubling (eight of
 * them to reach {@code MAX_EXTRA}). Reads left at the end of their second are <em>kept</em> as
 * long: the session's first read after a pause of up to {@link #PAUSE_MEMORY_SECONDS} takes one at
 * once ({@link #carry}), and one round trip in the background moves them all in the shared rate
 * window to the second they are now served in, and reserves what the lease then lacks of that size.
 * A session called once every few seconds (one of thousands an agent serves) therefore waits for
 * the shared state at its first two reads only: without the floor and the reservation, at every
 * read. Older reads are given up ({@link #close}) and returned to the shared entry by the session's
 * next round trip or by the periodic sweep. Never over a limit: every read handed out was counted
 * first. The price is that another replica serving the same session may be refused early, by at
 * most {@link #MAX_EXTRA} reads, until the lease's rest is returned.
 *
 * <p>A lease at its largest size ({@code MAX_EXTRA}, a session calling more than that many times a
 * second) is <em>topped up</em> when {@link #TOP_UP_LEFT} reads are left: one refill, in the
 * background, back to {@code MAX_EXTRA}, so a busy session's calls do not queue behind a round trip
 * each time the lease runs dry. Smaller leases are refilled when empty, which keeps a steady
 * session at one round trip per second. A lease never holds more than {@code MAX_EXTRA} reads
 * either way.
 *
 * <p>A lease that served reads in the last {@link #ROLL_AHEAD_MS} of its second is <em>rolled
 * ahead</em>, once per second: one refill, in the background, reserves the next second's reads
 * before it starts ({@code QuotaRules.reserveReadsAhead}), sized to this second's pace over the
 * time left and a whole second (never below the size the lease reached in it), and the rest of this
 * second's reads go back. Reads counted ahead count in every minute from then on, so the lease
 * hands them out at once, in the rest of this second too. A lease rolled ahead that runs low before
 * its second starts is refilled ahead as well: topped up when full-sized, doubled when empty. A
 * steady session's calls therefore never wait for the shared state at a new second (they did, at
 * every second's start, before leases were rolled ahead).
 *
 * <p>Thread-safe: event loops take from it; the session's drain (one at a time) closes and refills
 * it. Cost: two uncontended locks per read (the take, and the claim of any refill it makes due);
 * three for the first read after a pause (a take that fails, then the carry).
 */
final class ReadLease {

  /** Reads reserved beyond the call that asks; bounds what another replica can be refused early. */
  static final int MAX_EXTRA = 256;

  /**
   * Reads left in a full-sized lease when it is topped up, back to {@link #MAX_EXTRA}: half, so
   * that the reads arriving while the round trip runs do not wait for it; with a quarter left, a
   * busy session's reads waited for the round trip at saturation.
   */
  static final int TOP_UP_LEFT = MAX_EXTRA / 2;

  /**
   * How long a paused session's lease is kept: its last second with reads sizes the next, its reads
   * are handed out.
   */
  static final int PAUSE_MEMORY_SECONDS = 30;

  /** How long before its second ends a lease in use reserves the next second's reads. */
  static final int ROLL_AHEAD_MS = 200;

  /** Reads counted in {@code second} and not handed out. */
  record Unused(long second, int reads) {
    static final Unused NONE = new Unused(0, 0);
  }

  /**
   * Reads kept through a pause: {@code reads} counted in {@code second}, to move to the second they
   * are served in, and {@code reserve} more to count there, which fill the lease to its size.
   */
  record Carried(long second, int reads, int reserve) {}

  private long second = Long.MIN_VALUE;
  private int unused;

  /** Reads this replica let through for the session in {@code second}, by lease or round trip. */
  private int served;

  /** The size the last refill asked for: what a refill in the same second starts from. */
  private int extra;

  /** A top-up or roll-ahead was claimed and has not ended: at most one at a time. */
  private boolean toppingUp;

  /**
   * The lease's reads were counted before their second started: they may be handed out in the
   * second before.
   */
  private boolean countedAhead;

  /** The last second whose roll-ahead was claimed: one per second. */
  private long rolledIn = Long.MIN_VALUE;

  /**
   * Reads per second at the session's pace when the lease was rolled ahead (0 otherwise): it sizes
   * a lease after a pause as {@code served} does, since a roll starts {@code served} over.
   */
  private int pace;

  /** The pace measured by the roll-ahead claimed and not yet installed. */
  private int claimedPace;

  /**
   * Hands out one read counted in {@code nowSecond}, or counted ahead in the second after it, if
   * the lease holds one.
   */
  synchronized boolean take(long nowSecond) {
    if (unused == 0 || (nowSecond != second && !rolledAheadOf(nowSecond))) {
      return false;
    }
    unused--;
    served++;
    return true;
  }

  /**
   * Hands out one read kept from an earlier second, at most {@link #PAUSE_MEMORY_SECONDS} before
   * {@code nowSecond}, when no refill is under way: the lease then belongs to {@code nowSecond},
   * sized as a new second's refill would size it, and the caller has claimed the move of its reads
   * there ({@link dev.toolgate.policy.quota.QuotaRules#moveReads}) with the reservation of what it
   * lacks ({@link Carried#reserve}), a round trip it must end with {@link #reserved}. Returns the
   * reads to move, or {@code null} when nothing was handed out.
   */
  synchronized Carried carry(long nowSecond) {
    if (toppingUp || unused == 0 || second >= nowSecond || !remembered(nowSecond)) {
      return null;
    }
    int size = wanted(nowSecond);
    Carried kept = new Carried(second, unused, Math.max(0, size - (unused - 1)));
    toppingUp = true;
    second = nowSecond;
    countedAhead = false;
    pace = 0;
    served = 1;
    extra = size;
    unused--;
    return kept;
  }

  /**
   * Installs {@code granted} reads reserved in {@code nowSecond} by a carry's round trip and ends
   * the carry; returns the reads the caller must give back: these, when the lease has left that
   * second meanwhile.
   */
  synchronized Unused reserved(long nowSecond, int granted) {
    toppingUp = false;
    if (granted == 0) {
      return Unused.NONE;
    }
    if (nowSecond != second) {
      return new Unused(nowSecond, granted);
    }
    unused += granted;
    return Unused.NONE;
  }

  /**
   * Whether a top-up is due now (a full-sized lease of {@code nowSecond} down to {@link
   * #TOP_UP_LEFT} reads, none under way); if so, this caller has claimed it and must end it with
   * {@link #topUpEnded}.
   */
  synchronized boolean claimTopUp(long nowSecond) {
    if (toppingUp || nowSecond != second || !dueForTopUp()) {
      return false;
    }
    toppingUp = true;
    return true;
  }

  /**
   * Whether reads must be reserved ahead now, and how many (0: none; otherwise this caller has
   * claimed it and must end it with {@link #topUpEnded}). Either the lease's roll-ahead ({@code
   * nowMs} in the last {@link #ROLL_AHEAD_MS} of the lease's own second, once per second), sized to
   * this second's pace over the rest of it and the whole next one, and at least to the size the
   * lease reached in this second; or, for a full-sized lease already rolled ahead and down to
   * {@link #TOP_UP_LEFT} reads before its second starts, its top-up, reserved ahead too. Never
   * while another top-up or roll-ahead is under way.
   */
  synchronized int claimReadsAhead(long nowMs) {
    long nowSecond = Math.floorDiv(nowMs, 1000);
    if (toppingUp) {
      return 0;
    }
    if (rolledAheadOf(nowSecond)) {
      if (!dueForTopUp()) {
        return 0;
      }
      toppingUp = true;
      return MAX_EXTRA - unused;
    }
    long intoSecond = nowMs - nowSecond * 1000;
    if (nowSecond != second
        || rolledIn == second
        || intoSecond < 1000 - ROLL_AHEAD_MS
        || served == 0) {
      return 0;
    }
    toppingUp = true;
    rolledIn = second;
    // Never below the size this second's lease already reached: a burst that began late in the
    // second has served few reads yet, and a smaller lease would start over doubling.
    claimedPace =
        (int)
            Math.min(
                MAX_EXTRA + 1,
                Math.max(extra + 1L, (served * 1000L + intoSecond - 1) / intoSecond));
    long reads = Math.max(extra, (served * (2000 - intoSecond) + intoSecond - 1) / intoSecond);
    return (int) Math.min(MAX_EXTRA, reads);
  }

  /**
   * Installs {@code granted} reads reserved ahead for {@code nextSecond} (of a reservation that
   * asked for {@code wanted}) and returns what the caller must give back: when the lease moves to
   * {@code nextSecond}, the rest of its own second; when it is there already (an early top-up, or a
   * refill in that second overtook the roll-ahead), nothing, the reads join it; when it is past it,
   * the reads themselves.
   */
  synchronized Unused rolled(long nextSecond, int wanted, int granted) {
    if (nextSecond < second) {
      return granted == 0 ? Unused.NONE : new Unused(nextSecond, granted);
    }
    if (nextSecond == second) {
      unused += granted;
      return Unused.NONE;
    }
    Unused rest = unused == 0 ? Unused.NONE : new Unused(second, unused);
    second = nextSecond;
    served = 0;
    pace = claimedPace;
    unused = granted;
    extra = wanted;
    countedAhead = true;
    return rest;
  }

  /**
   * A full-sized lease with {@link #TOP_UP_LEFT} reads or fewer left: the one condition of a
   * top-up, in its second or ahead of it.
   */
  private boolean dueForTopUp() {
    return extra >= MAX_EXTRA && unused <= TOP_UP_LEFT;
  }

  /** Whether the lease was rolled ahead into the second after {@code nowSecond}. */
  synchronized boolean rolledAheadOf(long nowSecond) {
    return countedAhead && second == nowSecond + 1;
  }

  /** What {@link #claimRefill} returns when nothing was claimed. */
  static final int NO_REFILL = -1;

  /**
   * The refill due after a read at {@code nowMs}, claimed under one lock: reads to reserve ahead
   * ({@link #claimReadsAhead}, above 0), else 0 for a top-up in the lease's second ({@link
   * #claimTopUp}), else {@link #NO_REFILL}. A claim must be ended with {@link #topUpEnded}.
   */
  synchronized int claimRefill(long nowMs) {
    int ahead = claimReadsAhead(nowMs);
    if (ahead > 0) {
      return ahead;
    }
    return claimTopUp(Math.floorDiv(nowMs, 1000)) ? 0 : NO_REFILL;
  }

  /** The claimed top-up or roll-ahead is done, refilled or not: the next one may be claimed. */
  synchronized void topUpEnded() {
    toppingUp = false;
  }

  /**
   * What a refill in {@code nowSecond} reserves: the lease's {@link #wanted size}, less what it
   * still holds.
   */
  synchronized int toReserve(long nowSecond) {
    return Math.max(0, wanted(nowSecond) - (nowSecond == second ? unused : 0));
  }

  /** Gives up the reads of a second before {@code nowSecond}; the caller returns them. */
  synchronized Unused close(long nowSecond) {
    if (nowSecond <= second || unused == 0) {
      return Unused.NONE;
    }
    Unused rest = new Unused(second, unused);
    unused = 0;
    return rest;
  }

  /** Whether reads of a second before {@code nowSecond} wait to be returned. */
  synchronized boolean holdsUnusedBefore(long nowSecond) {
    return unused > 0 && second < nowSecond;
  }

  /**
   * Whether the lease's second is recent enough at {@code nowSecond} to size the next lease and
   * hand out its reads.
   */
  private boolean remembered(long nowSecond) {
    return second != Long.MIN_VALUE && nowSecond - second <= PAUSE_MEMORY_SECONDS;
  }

  /** Whether the lease holds nothing and its last second is too old to size the next one. */
  synchronized boolean idle(long nowSecond) {
    return unused == 0 && !remembered(nowSecond);
  }

  /**
   * The lease's size after a refill in {@code nowSecond}: the reads it holds beyond the calls that
   * ask.
   */
  synchronized int wanted(long nowSecond) {
    if (nowSecond == second) {
      return Math.min(MAX_EXTRA, Math.max(1, 2 * extra));
    }
    if (nowSecond > second && remembered(nowSecond)) {
      // At least one: a session called every few seconds would otherwise wait for a round trip at
      // each call.
      return Math.min(MAX_EXTRA, Math.max(1, Math.max(served, pace) - 1));
    }
    return 0;
  }

  /**
   * Records a refill in {@code nowSecond}: {@code counted} reads let through by the round trip,
   * {@code granted} more reserved for later (asked: {@code wanted}).
   */
  synchronized void refilled(long nowSecond, int wanted, int counted, int granted) {
    if (nowSecond < second) {
      return;
    }
    if (nowSecond > second) {
      second = nowSecond;
      served = 0;
      unused = 0;
      countedAhead = false;
      pace = 0;
    }
    served += counted;
    unused += granted;
    extra = wanted;
  }
}
