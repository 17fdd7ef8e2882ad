package dev.toolgate.policy.quota;

/**
 * Calls in the last minute, in sixty one-second buckets: exact to the second, 60 counters per
 * session. Immutable: counting returns a new window (one small array copy).
 *
 * <p>Calls may also be counted <em>ahead</em>, in the second after {@code lastSecond}, before it
 * starts ({@link #countAhead}): a read lease for the next second is reserved while this one ends.
 * They are kept apart from the buckets, because that second's bucket is the one of 59 seconds ago
 * until the window moves there; until then they count in every minute checked, so a read counted
 * ahead and served early is never missing from the minute it was served in.
 *
 * @param lastSecond the epoch second of the newest bucket
 * @param counts calls per second, indexed by epoch second modulo 60
 * @param ahead calls counted in second {@code lastSecond + 1}, not yet in its bucket
 */
public record RateWindow(long lastSecond, int[] counts, int ahead) {

  static final int SECONDS = 60;

  public RateWindow {
    if (ahead < 0) {
      throw new IllegalArgumentException("calls counted ahead must be >= 0, was " + ahead);
    }
  }

  public RateWindow(long lastSecond, int[] counts) {
    this(lastSecond, counts, 0);
  }

  public static RateWindow empty(long nowMs) {
    return new RateWindow(Math.floorDiv(nowMs, 1000), new int[SECONDS]);
  }

  /** Calls in the sliding minute that ends at {@code nowMs}, with those counted ahead of it. */
  int inLastMinute(long nowMs) {
    RateWindow current = at(Math.floorDiv(nowMs, 1000));
    int sum = current.ahead;
    for (int c : current.counts) {
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
    RateWindow current = at(now);
    int[] next = current.counts.clone();
    next[(int) Math.floorMod(now, (long) SECONDS)] += calls;
    return new RateWindow(current.lastSecond, next, current.ahead);
  }

  /** The window with {@code calls} more in the second after that of {@code nowMs}. */
  RateWindow countAhead(long nowMs, int calls) {
    long now = Math.floorDiv(nowMs, 1000);
    RateWindow current = at(now);
    if (current.lastSecond > now) {
      // The next second's bucket is already the window's (another replica's clock is there).
      return count((now + 1) * 1000, calls);
    }
    return new RateWindow(current.lastSecond, current.counts, current.ahead + calls);
  }

  /**
   * The window with {@code calls} fewer in epoch second {@code second} (never below zero); a second
   * already out of the window is left alone.
   */
  RateWindow uncount(long second, int calls) {
    if (second == lastSecond + 1) {
      return new RateWindow(lastSecond, counts, Math.max(0, ahead - calls));
    }
    if (second > lastSecond || lastSecond - second >= SECONDS) {
      return this;
    }
    int[] next = counts.clone();
    int i = (int) Math.floorMod(second, (long) SECONDS);
    next[i] = Math.max(0, next[i] - calls);
    return new RateWindow(lastSecond, next, ahead);
  }

  /**
   * The window as of second {@code now}: buckets older than a minute emptied, and the calls counted
   * ahead moved into their bucket once their second has come.
   */
  private RateWindow at(long now) {
    if (now <= lastSecond) {
      return this;
    }
    if (now - lastSecond >= SECONDS + 1) {
      return new RateWindow(now, new int[SECONDS]);
    }
    int[] out = counts.clone();
    for (long s = lastSecond + 1; s <= now; s++) {
      out[(int) Math.floorMod(s, (long) SECONDS)] = 0;
    }
    // Here now - lastSecond <= SECONDS: the second counted ahead is still in the window.
    out[(int) Math.floorMod(lastSecond + 1, (long) SECONDS)] += ahead;
    return new RateWindow(now, out);
  }
}
