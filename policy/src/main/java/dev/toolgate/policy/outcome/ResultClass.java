package dev.toolgate.policy.outcome;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * What one attempt came to. The wire names are the ones a policy's {@code retryOn} lists and the
 * {@code result} label of metrics and events.
 */
public enum ResultClass {
  /** The tool answered with a result. */
  SUCCESS(false),
  /** The tool answered {@code isError: true}: a business result, never a backend failure. */
  TOOL_ERROR(false),
  /** The server refused the arguments (JSON-RPC -32602). */
  INVALID_ARGUMENTS(false),
  /** The server answered another JSON-RPC error. */
  PROTOCOL_ERROR(false),
  /** The upstream could not be reached: connection refused, reset before any response, DNS. */
  TRANSPORT_UNAVAILABLE(true),
  /** HTTP 429: retry later, the backend is not down. */
  BACKEND_429(true),
  /** HTTP 503. */
  BACKEND_503(true),
  /** Any other HTTP 5xx. */
  BACKEND_5XX_OTHER(true),
  /** Any other HTTP 4xx. */
  BACKEND_4XX_OTHER(false),
  /** The upstream closed the stream before the response. */
  UPSTREAM_CLOSED(true),
  /**
   * The upstream's answer was larger than the sidecar reads ({@code runtime.maxAnswerBytes}): the
   * upstream answered, so it is no backend failure, and a retry would bring the same answer.
   */
  UPSTREAM_ANSWER_TOO_LARGE(false),
  /**
   * The sidecar held as many bodies as it may ({@code runtime.maxHeldBytes}) and let the answer go
   * rather than wait longer: the load is the sidecar's, not the backend's.
   */
  SIDECAR_OVERLOADED(false),
  /** A budget layer expired before the response. */
  TIMEOUT(true),
  /** The agent cancelled the call, or closed its stream, before the answer. */
  CANCELLED(false),
  /** The policy refused the call before it reached the backend. */
  POLICY_DENIED(false),
  /** The call needs a human's approval first. */
  APPROVAL_REQUIRED(false);

  private final boolean backendFailure;

  ResultClass(boolean backendFailure) {
    this.backendFailure = backendFailure;
  }

  /**
   * Whether this outcome says the backend or the way to it is failing: what a circuit breaker
   * counts. A tool's {@code isError} is not one.
   */
  public boolean isBackendFailure() {
    return backendFailure;
  }

  // Computed once: it names the value in every event and metric of every call.
  private final String wireName = name().toLowerCase(Locale.ROOT);

  @JsonValue
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static ResultClass fromWireName(String wireName) {
    return find(wireName)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown result class '"
                        + wireName
                        + "'; known: "
                        + Arrays.stream(values()).map(ResultClass::wireName).toList()));
  }

  public static Optional<ResultClass> find(String wireName) {
    return Arrays.stream(values()).filter(c -> c.wireName().equals(wireName)).findFirst();
  }
}
