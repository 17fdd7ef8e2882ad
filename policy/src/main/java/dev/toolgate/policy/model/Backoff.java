package dev.toolgate.policy.model;

/**
 * Exponential backoff with full jitter between attempts.
 *
 * @param initialMs the cap of the first delay
 * @param maxMs the cap of any delay
 */
public record Backoff(Long initialMs, Long maxMs) {
  public static final long DEFAULT_INITIAL_MS = 250;
  public static final long DEFAULT_MAX_MS = 1_500;

  public static final Backoff DEFAULT = new Backoff(null, null);

  public Backoff {
    initialMs = initialMs == null ? DEFAULT_INITIAL_MS : initialMs;
    maxMs = maxMs == null ? DEFAULT_MAX_MS : maxMs;
  }
}
