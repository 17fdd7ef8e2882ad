package dev.toolgate.policy.model;

/**
 * A circuit breaker per tool and backend over a time window (seed 000).
 *
 * @param windowSeconds the sliding window the ratios are computed over
 * @param minimumCalls calls in the window before the breaker may open
 * @param failureRatio opens when failures / calls reaches this, in (0, 1]
 * @param slowCallRatio opens when slow calls / calls reaches this, in (0, 1]
 * @param slowCallMs a call slower than this is slow
 * @param openSeconds how long the breaker stays open before probing
 * @param halfOpen probes while half-open
 * @param fallback what an open breaker answers
 * @param scope one breaker per tool and backend, or per backend
 */
public record BreakerPolicy(
    Integer windowSeconds,
    Integer minimumCalls,
    Double failureRatio,
    Double slowCallRatio,
    Long slowCallMs,
    Integer openSeconds,
    HalfOpen halfOpen,
    Fallback fallback,
    BreakerScope scope) {

  public BreakerPolicy(
      Integer windowSeconds,
      Integer minimumCalls,
      Double failureRatio,
      Double slowCallRatio,
      Long slowCallMs,
      Integer openSeconds,
      HalfOpen halfOpen,
      Fallback fallback) {
    this(windowSeconds, minimumCalls, failureRatio, slowCallRatio, slowCallMs, openSeconds,
        halfOpen, fallback, null);
  }

  public static final int DEFAULT_WINDOW_SECONDS = 60;
  public static final int DEFAULT_MINIMUM_CALLS = 20;
  public static final double DEFAULT_FAILURE_RATIO = 0.5;
  public static final double DEFAULT_SLOW_CALL_RATIO = 0.7;
  public static final long DEFAULT_SLOW_CALL_MS = 5_000;
  public static final int DEFAULT_OPEN_SECONDS = 30;

  public static final BreakerPolicy DEFAULT =
      new BreakerPolicy(null, null, null, null, null, null, null, null, null);

  public BreakerPolicy {
    windowSeconds = windowSeconds == null ? DEFAULT_WINDOW_SECONDS : windowSeconds;
    minimumCalls = minimumCalls == null ? DEFAULT_MINIMUM_CALLS : minimumCalls;
    failureRatio = failureRatio == null ? DEFAULT_FAILURE_RATIO : failureRatio;
    slowCallRatio = slowCallRatio == null ? DEFAULT_SLOW_CALL_RATIO : slowCallRatio;
    slowCallMs = slowCallMs == null ? DEFAULT_SLOW_CALL_MS : slowCallMs;
    openSeconds = openSeconds == null ? DEFAULT_OPEN_SECONDS : openSeconds;
    halfOpen = halfOpen == null ? HalfOpen.DEFAULT : halfOpen;
    fallback = fallback == null ? Fallback.NONE : fallback;
    scope = scope == null ? BreakerScope.TOOL_AND_BACKEND : scope;
  }
}
