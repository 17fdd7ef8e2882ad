package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/** A circuit breaker per tool and backend over a time window (seed 000). */
public record BreakerPolicy(
    @JsonPropertyDescription("The sliding window the ratios are computed over.")
        @Min(1)
        @Max(Bounds.HOUR_SECONDS)
        Integer windowSeconds,
    @JsonPropertyDescription("Calls in the window before the breaker may open.")
        @Min(1)
        @Max(Bounds.COUNT)
        Integer minimumCalls,
    @JsonPropertyDescription("Opens when failures / calls reaches this, in (0, 1].")
        @Min(value = 0, inclusive = false)
        @Max(1)
        Double failureRatio,
    @JsonPropertyDescription("Opens when slow calls / calls reaches this, in (0, 1].")
        @Min(value = 0, inclusive = false)
        @Max(1)
        Double slowCallRatio,
    @JsonPropertyDescription("A call slower than this is slow.") @Min(1) @Max(Bounds.HOUR_MS)
        Long slowCallMs,
    @JsonPropertyDescription("How long the breaker stays open before probing.")
        @Min(1)
        @Max(Bounds.DAY_SECONDS)
        Integer openSeconds,
    @JsonPropertyDescription("Probes while half-open.") HalfOpen halfOpen,
    @JsonPropertyDescription("What an open breaker answers.") Fallback fallback,
    @JsonPropertyDescription("One breaker per tool and backend, or per backend.")
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
    this(
        windowSeconds,
        minimumCalls,
        failureRatio,
        slowCallRatio,
        slowCallMs,
        openSeconds,
        halfOpen,
        fallback,
        null);
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
