package dev.toolgate.sidecar.evidence;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.time.Instant;

/**
 * One attempt of one tool call: the evidence seed 000 asks for, one JSON line per attempt.
 *
 * @param timestamp when the attempt ended
 * @param correlationId the call's id, also given to the agent
 * @param conversationId the agent's conversation, when it sent one
 * @param intentId the intent this call serves, when known
 * @param sessionKey the MCP session, or what stands for it
 * @param tool the tool name
 * @param upstream the upstream name
 * @param attempt 1 for the first attempt
 * @param upstreamRequestId the JSON-RPC id this attempt used upstream
 * @param result the result class ({@code success}, {@code backend_503}, ...)
 * @param httpStatus the upstream's HTTP status, 0 when none was received
 * @param durationMs how long the attempt took
 * @param timeoutLayer the budget layer that expired, when one did
 * @param backendOperationId the operation the backend reported, when it did
 * @param policyRevision the revision of the policy in force
 * @param configHash the short hash of the configuration in force
 * @param mode {@code enforce} or {@code shadow}
 * @param decision what the sidecar did: {@code forwarded}, {@code retried}, {@code final},
 *     {@code denied}, {@code replayed}, {@code shared}, {@code ambiguous_lookup}, {@code late_result},
 *     {@code shadow}
 * @param retryReason why the next attempt runs, or why none does
 * @param idempotencyKey the write's key (a hash: never a secret)
 * @param reason why the sidecar decided as it did (denials, ambiguous writes)
 * @param wouldHave in shadow mode, what enforcement would have done
 * @param circuitState the tool's circuit when the call came, when it has a breaker
 */
public record AttemptEvent(
    Instant timestamp,
    String correlationId,
    String conversationId,
    String intentId,
    String sessionKey,
    String tool,
    String upstream,
    int attempt,
    String upstreamRequestId,
    String result,
    int httpStatus,
    double durationMs,
    String timeoutLayer,
    String backendOperationId,
    long policyRevision,
    String configHash,
    String mode,
    String decision,
    String retryReason,
    String idempotencyKey,
    String reason,
    String wouldHave,
    String circuitState) {

  /**
   * Writes the event as one JSON object, absent fields left out. Streamed field by field: no map,
   * no intermediate string (this runs once per attempt).
   */
  public void writeJson(JsonGenerator out) throws IOException {
    out.writeStartObject();
    out.writeStringField("ts", IsoInstant.format(timestamp));
    out.writeStringField("event", "tool_attempt");
    field(out, "correlationId", correlationId);
    field(out, "conversationId", conversationId);
    field(out, "intentId", intentId);
    field(out, "sessionKey", sessionKey);
    field(out, "tool", tool);
    field(out, "upstream", upstream);
    out.writeNumberField("attempt", attempt);
    field(out, "upstreamRequestId", upstreamRequestId);
    field(out, "result", result);
    out.writeNumberField("httpStatus", httpStatus);
    out.writeNumberField("durationMs", Math.round(durationMs * 1000) / 1000.0);
    field(out, "timeoutLayer", timeoutLayer);
    field(out, "backendOperationId", backendOperationId);
    out.writeNumberField("policyRevision", policyRevision);
    field(out, "configHash", configHash);
    field(out, "mode", mode);
    field(out, "decision", decision);
    field(out, "retryReason", retryReason);
    field(out, "idempotencyKey", idempotencyKey);
    field(out, "reason", reason);
    field(out, "wouldHave", wouldHave);
    field(out, "circuitState", circuitState);
    out.writeEndObject();
  }

  private static void field(JsonGenerator out, String name, String value) throws IOException {
    if (value != null) {
      out.writeStringField(name, value);
    }
  }
}
