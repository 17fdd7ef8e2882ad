package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** How the sidecar itself behaves, apart from the policy. */
public record RuntimeOptions(
    @JsonPropertyDescription("A request body larger than this is refused with 413.")
        Integer maxBodyBytes,
    @JsonPropertyDescription("How often the config file is checked for a change.")
        Long configPollMs,
    @JsonPropertyDescription("How long connecting to an upstream may take.") Long connectTimeoutMs,
    @JsonPropertyDescription(
            "Calls sent through a private copy of the proxy to a loopback stub once the "
                + "sidecar is ready, so that the JIT compiles the call path before the agent's "
                + "first calls; 0 turns the warm-up off.")
        Integer warmupCalls) {
  public static final int DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
  public static final long DEFAULT_CONFIG_POLL_MS = 1_000;
  public static final long DEFAULT_CONNECT_TIMEOUT_MS = 2_000;

  /** Enough for the JIT to compile the call path; the agent's first request stops it earlier. */
  public static final int DEFAULT_WARMUP_CALLS = 1_000;

  /** A warm-up is a start-up step: past this many calls it only burns CPU. */
  public static final int MAX_WARMUP_CALLS = 100_000;

  public static final RuntimeOptions DEFAULT = new RuntimeOptions(null, null, null, null);

  public RuntimeOptions {
    maxBodyBytes = maxBodyBytes == null ? DEFAULT_MAX_BODY_BYTES : maxBodyBytes;
    configPollMs = configPollMs == null ? DEFAULT_CONFIG_POLL_MS : configPollMs;
    connectTimeoutMs = connectTimeoutMs == null ? DEFAULT_CONNECT_TIMEOUT_MS : connectTimeoutMs;
    warmupCalls = warmupCalls == null ? DEFAULT_WARMUP_CALLS : warmupCalls;
  }
}
