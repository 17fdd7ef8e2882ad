package dev.toolgate.policy.breaker;

/**
 * Outcomes over the last {@code windowSeconds}, in one-second buckets: calls, failures, slow calls.
 * Old buckets are reused as time moves on. Recording and reading are O(windowSeconds) at most and
 * allocate nothing. Not thread-safe: the breaker that owns it synchronises.
 */
final class CallWindow {

  private final int seconds;
  private final long[] epochSecond;
  private final int[] calls;
  private final int[] failures;
  private final int[] slow;

  CallWindow(int seconds) {
    this.seconds = seconds;
    this.epochSecond = new long[seconds];
    this.calls = new int[seconds];
    this.failures = new int[seconds];
    this.slow = new int[seconds];
    java.util.Arrays.fill(epochSecond, Long.MIN_VALUE);
  }

  void record(long nowMs, boolean failure, boolean slowCall) {
    int i = bucket(nowMs);
    calls[i]++;
    if (failure) {
      failures[i]++;
    }
    if (slowCall) {
      slow[i]++;
    }
  }

  WindowSnapshot snapshot(long nowMs) {
    long now = Math.floorDiv(nowMs, 1000);
    int c = 0;
    int f = 0;
    int s = 0;
    for (int i = 0; i < seconds; i++) {
      if (now - epochSecond[i] < seconds && epochSecond[i] <= now) {
        c += calls[i];
        f += failures[i];
        s += slow[i];
      }
    }
    return new WindowSnapshot(c, f, s);
  }

  /**
   * The non-empty buckets of the window at {@code nowMs}, as {@code [epochSecond, calls, failures,
   * slowCalls]}: what a replica publishes for its peers.
   */
  java.util.List<long[]> buckets(long nowMs) {
    long now = Math.floorDiv(nowMs, 1000);
    java.util.List<long[]> out = new java.util.ArrayList<>();
    for (int i = 0; i < seconds; i++) {
      if (now - epochSecond[i] < seconds && epochSecond[i] <= now && calls[i] > 0) {
        out.add(new long[] {epochSecond[i], calls[i], failures[i], slow[i]});
      }
    }
    return out;
  }

  void clear() {
    java.util.Arrays.fill(epochSecond, Long.MIN_VALUE);
    java.util.Arrays.fill(calls, 0);
    java.util.Arrays.fill(failures, 0);
    java.util.Arrays.fill(slow, 0);
  }

  private int bucket(long nowMs) {
    long second = Math.floorDiv(nowMs, 1000);
    int i = (int) Math.floorMod(second, (long) seconds);
    if (epochSecond[i] != second) {
      epochSecond[i] = second;
      calls[i] = 0;
      failures[i] = 0;
      slow[i] = 0;
    }
    return i;
  }
}
