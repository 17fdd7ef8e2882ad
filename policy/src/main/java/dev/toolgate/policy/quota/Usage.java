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

  public Usage raised(int moreReads, int moreWrites) {
    return new Usage(
        reads, writes, extraReads + moreReads, extraWrites + moreWrites, lastSeenMs, rate);
  }
}
