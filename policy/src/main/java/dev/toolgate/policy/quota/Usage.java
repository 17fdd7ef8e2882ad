package dev.toolgate.policy.quota;

/**
 * What a session (or an agent) has used, and what an administrator added to its quota.
 *
 * @param reads read calls counted
 * @param writes write calls counted
 * @param extraReads reads added by an administrator on top of the policy's quota
 * @param extraWrites writes added by an administrator
 * @param lastSeenMs the last call, for idle expiry
 * @param rate calls in the last minute
 */
public record Usage(
    int reads, int writes, int extraReads, int extraWrites, long lastSeenMs, RateWindow rate) {

  public static Usage fresh(long nowMs) {
    return new Usage(0, 0, 0, 0, nowMs, RateWindow.empty(nowMs));
  }

  /**
   * The most an administrator's raises add up to, per kind: a limit plus it still fits an int, so
   * no sequence of raises can wrap a quota around to a negative one.
   */
  public static final int MAX_EXTRA = 1_000_000_000;

  /** This usage with more added to its quota, the sum held at {@link #MAX_EXTRA}. */
  public Usage raised(int moreReads, int moreWrites) {
    if (moreReads < 0 || moreWrites < 0) {
      throw new IllegalArgumentException(
          "a raise adds reads and writes (>= 0), was " + moreReads + " and " + moreWrites);
    }
    return new Usage(
        reads,
        writes,
        (int) Math.min(MAX_EXTRA, (long) extraReads + moreReads),
        (int) Math.min(MAX_EXTRA, (long) extraWrites + moreWrites),
        lastSeenMs,
        rate);
  }

  /** This usage with another rate window. */
  public Usage withRate(RateWindow other) {
    return new Usage(reads, writes, extraReads, extraWrites, lastSeenMs, other);
  }
}
