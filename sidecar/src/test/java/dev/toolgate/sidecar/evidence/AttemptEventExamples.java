package dev.toolgate.sidecar.evidence;

import java.time.Instant;

/** Attempt events for the evidence tests. */
final class AttemptEventExamples {

  private AttemptEventExamples() {}

  /** A successful forwarded first attempt of {@code get_job}, at 2026-11-30T08:00:00Z. */
  static AttemptEvent forwarded(String correlationId) {
    return new AttemptEvent(
        Instant.parse("2026-11-30T08:00:00Z"),
        correlationId,
        null,
        null,
        "s1",
        "get_job",
        "jobs",
        1,
        correlationId + "-a1",
        "success",
        200,
        1.5,
        null,
        null,
        3,
        "abc",
        "enforce",
        "forwarded",
        null,
        null,
        null,
        null,
        "closed",
        null,
        null);
  }
}
