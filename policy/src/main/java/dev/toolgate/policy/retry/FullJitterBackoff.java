package dev.toolgate.policy.retry;

import dev.toolgate.policy.model.Backoff;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with full jitter (the AWS architecture blog's "full jitter"): the delay
 * before retry {@code n} (1-based) is uniform in {@code [0, min(maxMs, initialMs * 2^(n-1))]}.
 * Spreading retries over the whole interval is what keeps clients from retrying in lockstep. O(1),
 * no allocation.
 */
public final class FullJitterBackoff {

  private FullJitterBackoff() {}

  /** The cap of the delay before retry {@code retry} (1 for the first retry). */
  public static long capMs(Backoff backoff, int retry) {
    int shift = Math.min(Math.max(retry - 1, 0), 30);
    long exponential = backoff.initialMs() << shift;
    return exponential <= 0 ? backoff.maxMs() : Math.min(backoff.maxMs(), exponential);
  }

  /**
   * The delay before retry {@code retry}.
   *
   * @param random uniform in [0, 1)
   */
  public static long delayMs(Backoff backoff, int retry, DoubleSupplier random) {
    return (long) Math.floor(random.getAsDouble() * (capMs(backoff, retry) + 1));
  }
}
