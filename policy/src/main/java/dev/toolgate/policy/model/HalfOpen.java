package dev.toolgate.policy.model;

/**
 * What a half-open breaker lets through.
 *
 * @param probeCalls successful probes needed to close again
 * @param concurrentProbes probes allowed at once, across all replicas
 */
public record HalfOpen(Integer probeCalls, Integer concurrentProbes) {
  public static final int DEFAULT_PROBE_CALLS = 3;
  public static final int DEFAULT_CONCURRENT_PROBES = 1;

  public static final HalfOpen DEFAULT = new HalfOpen(null, null);

  public HalfOpen {
    probeCalls = probeCalls == null ? DEFAULT_PROBE_CALLS : probeCalls;
    concurrentProbes = concurrentProbes == null ? DEFAULT_CONCURRENT_PROBES : concurrentProbes;
  }
}
