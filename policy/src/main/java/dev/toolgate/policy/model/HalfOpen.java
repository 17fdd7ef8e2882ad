package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/** What a half-open breaker lets through. */
public record HalfOpen(
    @JsonPropertyDescription("Successful probes needed to close again.") @Min(1) @Max(Bounds.PROBES)
        Integer probeCalls,
    @JsonPropertyDescription("Probes allowed at once, across all replicas.")
        @Min(1)
        @Max(Bounds.PROBES)
        Integer concurrentProbes) {
  public static final int DEFAULT_PROBE_CALLS = 3;
  public static final int DEFAULT_CONCURRENT_PROBES = 1;

  public static final HalfOpen DEFAULT = new HalfOpen(null, null);

  public HalfOpen {
    probeCalls = probeCalls == null ? DEFAULT_PROBE_CALLS : probeCalls;
    concurrentProbes = concurrentProbes == null ? DEFAULT_CONCURRENT_PROBES : concurrentProbes;
  }
}
