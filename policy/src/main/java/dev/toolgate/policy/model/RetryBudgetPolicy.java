package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/**
 * The sidecar-wide retry budget: retries at most {@code ratio} of calls over {@code windowSeconds},
 * plus {@code minRetriesPerSecond}, so that a general failure does not become a retry storm.
 */
public record RetryBudgetPolicy(
    @JsonPropertyDescription("Retries allowed per call, in [0, 1].") @Min(0) @Max(1) Double ratio,
    @JsonPropertyDescription("Retries always allowed, however few the calls.")
        @Min(0)
        @Max(Bounds.COUNT)
        Integer minRetriesPerSecond,
    @JsonPropertyDescription("The window the counts are kept over.")
        @Min(1)
        @Max(Bounds.HOUR_SECONDS)
        Integer windowSeconds) {
  public static final double DEFAULT_RATIO = 0.2;
  public static final int DEFAULT_MIN_RETRIES_PER_SECOND = 10;
  public static final int DEFAULT_WINDOW_SECONDS = 10;

  public static final RetryBudgetPolicy DEFAULT = new RetryBudgetPolicy(null, null, null);

  public RetryBudgetPolicy {
    ratio = ratio == null ? DEFAULT_RATIO : ratio;
    minRetriesPerSecond =
        minRetriesPerSecond == null ? DEFAULT_MIN_RETRIES_PER_SECOND : minRetriesPerSecond;
    windowSeconds = windowSeconds == null ? DEFAULT_WINDOW_SECONDS : windowSeconds;
  }
}
