package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/** Exponential backoff with full jitter between attempts. */
public record Backoff(
    @JsonPropertyDescription("The cap of the first delay.") @Min(1) @Max(Bounds.HOUR_MS)
        Long initialMs,
    @JsonPropertyDescription("The cap of any delay.") @Min(1) @Max(Bounds.HOUR_MS) Long maxMs) {
  public static final long DEFAULT_INITIAL_MS = 250;
  public static final long DEFAULT_MAX_MS = 1_500;

  public static final Backoff DEFAULT = new Backoff(null, null);

  public Backoff {
    initialMs = initialMs == null ? DEFAULT_INITIAL_MS : initialMs;
    maxMs = maxMs == null ? DEFAULT_MAX_MS : maxMs;
  }
}
