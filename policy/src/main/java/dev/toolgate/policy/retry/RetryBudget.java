package dev.toolgate.policy.retry;

/**
 * A sidecar-wide limit on retries, as Envoy and Linkerd have: over a sliding window, retries may be
 * at most {@code ratio} of calls, plus a floor of {@code minRetriesPerSecond}. When everything
 * fails at once, this is what stops each call from multiplying the load by its attempt count.
 *
 * <p>Algorithm: calls and retries are counted in one-second buckets over {@code windowSeconds}; a
 * retry is allowed when {@code retries < ratio * calls + minRetriesPerSecond * windowSeconds}. Time
 * comes from the caller (no clock inside). O(window) per decision, thread-safe.
 */
public final class RetryBudget {

  public static final double DEFAULT_RATIO = 0.2;
  public static final int DEFAULT_MIN_RETRIES_PER_SECOND = 10;
  public static final int DEFAULT_WINDOW_SECONDS = 10;

  private final double ratio;
  private final int minRetriesPerSecond;
  private final int windowSeconds;
  private final long[] calls;
  private final long[] retries;
  private final long[] bucketSecond;

  public RetryBudget(double ratio, int minRetriesPerSecond, int windowSeconds) {
    if (!(ratio >= 0 && ratio <= 1)) {
      throw new IllegalArgumentException("retry budget ratio must be in [0, 1], was " + ratio);
    }
    if (minRetriesPerSecond < 0) {
      throw new IllegalArgumentException(
          "retry budget minRetriesPerSecond must be >= 0, was " + minRetriesPerSecond);
    }
    if (windowSeconds < 1) {
      throw new IllegalArgumentException(
          "retry budget windowSeconds must be >= 1, was " + windowSeconds);
    }
    this.ratio = ratio;
    this.minRetriesPerSecond = minRetriesPerSecond;
    this.windowSeconds = windowSeconds;
    this.calls = new long[windowSeconds];
    this.retries = new long[windowSeconds];
    this.bucketSecond = new long[windowSeconds];
  }

  public static RetryBudget defaults() {
    return new RetryBudget(DEFAULT_RATIO, DEFAULT_MIN_RETRIES_PER_SECOND, DEFAULT_WINDOW_SECONDS);
  }

  /** Counts a call (its first attempt). */
  public synchronized void recordCall(long nowMs) {
    calls[bucket(nowMs)]++;
  }

  /** Takes a retry from the budget if there is room; returns whether the retry may run. */
  public synchronized boolean tryAcquireRetry(long nowMs) {
    bucket(nowMs);
    long second = nowMs / 1000;
    long callSum = 0;
    long retrySum = 0;
    for (int i = 0; i < windowSeconds; i++) {
      if (second - bucketSecond[i] < windowSeconds) {
        callSum += calls[i];
        retrySum += retries[i];
      }
    }
    double allowed = ratio * callSum + (double) minRetriesPerSecond * windowSeconds;
    if (retrySum + 1 > allowed) {
      return false;
    }
    retries[bucket(nowMs)]++;
    return true;
  }

  private int bucket(long nowMs) {
    long second = nowMs / 1000;
    int i = (int) Math.floorMod(second, (long) windowSeconds);
    if (bucketSecond[i] != second) {
      bucketSecond[i] = second;
      calls[i] = 0;
      retries[i] = 0;
    }
    return i;
  }
}
