package dev.toolgate.policy.quota;

/**
 * Calls in the last minute, in sixty one-second buckets: exact to the second, 60 counters per
 * session. Immutable: counting returns a new window (one small array copy).
 *
 * @param lastSecond the epoch second of the newest bucket
 * @param counts calls per second, indexed by epoch second modulo 60
 */
public record RateWindow(long lastSecond, int[] counts) {

  static final int SECONDS = 60;

  public static RateWindow empty(long nowMs) {
    return new RateWindow(Math.floorDiv(nowMs, 1000), new int[SECONDS]);
  }

  /** Calls in the sliding minute that ends at {@code nowMs}. */
  int inLastMinute(long nowMs) {
    long now = Math.floorDiv(nowMs, 1000);
    int[] current = shifted(now);
    int sum = 0;
    for (int c : current) {
      sum += c;
    }
    return sum;
  }

  RateWindow count(long nowMs) {
    return count(nowMs, 1);
  }

  /** The window with {@code calls} more in the second of {@code nowMs}. */
  RateWindow count(long nowMs, int calls) {
    long now = Math.floorDiv(nowMs, 1000);
    int[] next = shifted(now).clone();
    next[(int) Math.floorMod(now, (long) SECONDS)] += calls;
    return new RateWindow(Math.max(now, lastSecond), next);
  }

  /**
   * The window with {@code calls} fewer in epoch second {@code second} (never below zero); a
   * second already out of the window is left alone.
   */
  RateWindow uncount(long second, int calls) {
    if (second > lastSecond || lastSecond - second >= SECONDS) {
      return this;
    }
    int[] next = counts.clone();
    int i = (int) Math.floorMod(second, (long) SECONDS);
    next[i] = Math.max(0, next[i] - calls);
    return new RateWindow(lastSecond, next);
  }

  /** The buckets as of second {@code now}: those older than a minute are emptied. */
  private int[] shifted(long now) {
    if (now <= lastSecond) {
      return counts;
    }
    if (now - lastSecond >= SECONDS) {
      return new int[SECONDS];
    }
    int[] out = counts.clone();
    for (long s = lastSecond + 1; s <= now; s++) {
      out[(int) Math.floorMod(s, (long) SECONDS)] = 0;
    }
    return out;
  }
}
