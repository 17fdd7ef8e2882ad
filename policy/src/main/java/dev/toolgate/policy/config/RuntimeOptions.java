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
        Integer warmupCalls,
    @JsonPropertyDescription(
            "A connection of the MCP or admin listener with nothing read or written for this long"
                + " is closed (an SSE stream with no event for this long included: its client"
                + " reconnects).")
        Integer idleTimeoutSeconds,
    @JsonPropertyDescription(
            "A new connection whose first request's headers are not in within this long is"
                + " closed: a client trickling its headers holds a connection no longer.")
        Long headerTimeoutMs,
    @JsonPropertyDescription(
            "Connections each listener holds at once; one more is closed as it opens.")
        Integer maxConnections,
    @JsonPropertyDescription(
            "An upstream's answer read whole (a JSON answer, one server-sent event) larger than"
                + " this is not read on: its exchange is reset and the call answered"
                + " upstream_answer_too_large.")
        Integer maxAnswerBytes,
    @JsonPropertyDescription(
            "Bytes of agent requests and upstream answers held whole at once, together, requests"
                + " at most half of them: past this, a new request is refused with 503 and"
                + " Retry-After, and answers are read on only as others are let go (one that waits"
                + " 2 s for room is dropped as sidecar_overloaded). At least twice maxBodyBytes"
                + " and maxAnswerBytes. Sized for the image's heap (-Xmx64m).")
        Integer maxHeldBytes) {

  public RuntimeOptions(
      Integer maxBodyBytes, Long configPollMs, Long connectTimeoutMs, Integer warmupCalls) {
    this(maxBodyBytes, configPollMs, connectTimeoutMs, warmupCalls, null, null, null, null, null);
  }

  public static final int DEFAULT_IDLE_TIMEOUT_SECONDS = 300;
  public static final long DEFAULT_HEADER_TIMEOUT_MS = 10_000;
  public static final int DEFAULT_MAX_CONNECTIONS = 1_024;

  public static final int DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
  public static final int DEFAULT_MAX_ANSWER_BYTES = 2 * 1024 * 1024;
  public static final int DEFAULT_MAX_HELD_BYTES = 12 * 1024 * 1024;
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
    idleTimeoutSeconds =
        idleTimeoutSeconds == null ? DEFAULT_IDLE_TIMEOUT_SECONDS : idleTimeoutSeconds;
    headerTimeoutMs = headerTimeoutMs == null ? DEFAULT_HEADER_TIMEOUT_MS : headerTimeoutMs;
    maxConnections = maxConnections == null ? DEFAULT_MAX_CONNECTIONS : maxConnections;
    maxAnswerBytes = maxAnswerBytes == null ? DEFAULT_MAX_ANSWER_BYTES : maxAnswerBytes;
    maxHeldBytes = maxHeldBytes == null ? DEFAULT_MAX_HELD_BYTES : maxHeldBytes;
  }
}
