package dev.toolgate.demo;

import io.vertx.core.json.JsonObject;
import java.util.Locale;

/**
 * One fault the demo backend injects into calls of a tool.
 *
 * @param kind what goes wrong
 * @param status the HTTP status, for {@link Kind#STATUS}
 * @param retryAfterSeconds the {@code Retry-After} header sent with the status, when positive
 * @param times how many calls the fault applies to; 0 means every call until cleared or expired
 * @param durationMs how long the fault lasts from injection; 0 means until cleared or used up
 * @param delayMs for {@link Kind#LATE_ANSWER}: how long before the answer
 * @param bytes for {@link Kind#HUGE_ANSWER}: the answer's size; 0 for one that never ends
 */
public record Fault(
    Kind kind,
    int status,
    int retryAfterSeconds,
    int times,
    long durationMs,
    long delayMs,
    long bytes) {

  public Fault(
      Kind kind, int status, int retryAfterSeconds, int times, long durationMs, long delayMs) {
    this(kind, status, retryAfterSeconds, times, durationMs, delayMs, 0);
  }

  /** What goes wrong. */
  public enum Kind {
    /** Answer with an HTTP status (503, 429, ...) instead of calling the tool. */
    STATUS,
    /**
     * Perform the operation, then never answer: the response is lost after the backend accepted.
     */
    LOSE_RESPONSE,
    /** Neither perform nor answer. */
    HANG,
    /** Start an SSE response, send one event, then close the connection. */
    CLOSE_MID_STREAM,
    /** Perform and answer after {@code delayMs}, even if the call was cancelled meanwhile. */
    LATE_ANSWER,
    /**
     * Perform, then answer with a result of {@code bytes} bytes, sent as it is written (as JSON
     * without a length, or as one event when the tool answers SSE); with 0 bytes it never ends.
     */
    HUGE_ANSWER
  }

  public static Fault status(int status, int times) {
    return new Fault(Kind.STATUS, status, 0, times, 0, 0);
  }

  public static Fault loseResponse(int times) {
    return new Fault(Kind.LOSE_RESPONSE, 0, 0, times, 0, 0);
  }

  public static Fault hang(int times) {
    return new Fault(Kind.HANG, 0, 0, times, 0, 0);
  }

  public static Fault closeMidStream(int times) {
    return new Fault(Kind.CLOSE_MID_STREAM, 0, 0, times, 0, 0);
  }

  public static Fault lateAnswer(long delayMs, int times) {
    return new Fault(Kind.LATE_ANSWER, 0, 0, times, 0, delayMs);
  }

  public static Fault hugeAnswer(long bytes, int times) {
    return new Fault(Kind.HUGE_ANSWER, 0, 0, times, 0, 0, bytes);
  }

  public Fault withRetryAfterSeconds(int seconds) {
    return new Fault(kind, status, seconds, times, durationMs, delayMs, bytes);
  }

  public Fault lasting(long millis) {
    return new Fault(kind, status, retryAfterSeconds, times, millis, delayMs, bytes);
  }

  /** Reads the JSON the fault API takes: {@code {"kind":"status","status":503,"times":2}}. */
  public static Fault fromJson(JsonObject json) {
    String kind = json.getString("kind");
    if (kind == null) {
      throw new IllegalArgumentException("'kind' is required: " + KINDS);
    }
    Kind k;
    try {
      k = Kind.valueOf(kind.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown fault kind '" + kind + "': " + KINDS, e);
    }
    int status = json.getInteger("status", 0);
    if (k == Kind.STATUS && (status < 400 || status > 599)) {
      throw new IllegalArgumentException(
          "a status fault needs 'status' in [400, 599], was " + status);
    }
    long bytes = json.getLong("bytes", 0L);
    if (bytes < 0) {
      throw new IllegalArgumentException("'bytes' must be >= 0 (0: never ends), was " + bytes);
    }
    return new Fault(
        k,
        status,
        json.getInteger("retryAfterSeconds", 0),
        json.getInteger("times", 0),
        json.getLong("durationMs", 0L),
        json.getLong("delayMs", 0L),
        bytes);
  }

  private static final String KINDS =
      "status, lose_response, hang, close_mid_stream, late_answer or huge_answer";
}
