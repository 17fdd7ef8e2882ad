package dev.toolgate.sidecar.evidence;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
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
 * @param decision what the sidecar did: {@code forwarded}, {@code retried}, {@code final}, {@code
 *     denied}, {@code replayed}, {@code shared}, {@code ambiguous_lookup}, {@code late_result},
 *     {@code shadow}
 * @param retryReason why the next attempt runs, or why none does
 * @param idempotencyKey the write's key (a hash: never a secret)
 * @param reason why the sidecar decided as it did (denials, ambiguous writes)
 * @param wouldHave in shadow mode, what enforcement would have done
 * @param circuitState the tool's circuit when the call came, when it has a breaker
 * @param approvalId the id of the verified approval the call carries, when it carries one
 * @param approver who signed that approval
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
    String circuitState,
    String approvalId,
    String approver) {

  // The field names, each quoted and encoded once for every event written.
  private static final SerializedString TS = new SerializedString("ts");
  private static final SerializedString EVENT = new SerializedString("event");
  private static final SerializedString CORRELATION_ID = new SerializedString("correlationId");
  private static final SerializedString CONVERSATION_ID = new SerializedString("conversationId");
  private static final SerializedString INTENT_ID = new SerializedString("intentId");
  private static final SerializedString SESSION_KEY = new SerializedString("sessionKey");
  private static final SerializedString TOOL = new SerializedString("tool");
  private static final SerializedString UPSTREAM = new SerializedString("upstream");
  private static final SerializedString ATTEMPT = new SerializedString("attempt");
  private static final SerializedString UPSTREAM_REQUEST_ID =
      new SerializedString("upstreamRequestId");
  private static final SerializedString RESULT = new SerializedString("result");
  private static final SerializedString HTTP_STATUS = new SerializedString("httpStatus");
  private static final SerializedString DURATION_MS = new SerializedString("durationMs");
  private static final SerializedString TIMEOUT_LAYER = new SerializedString("timeoutLayer");
  private static final SerializedString BACKEND_OPERATION_ID =
      new SerializedString("backendOperationId");
  private static final SerializedString POLICY_REVISION = new SerializedString("policyRevision");
  private static final SerializedString CONFIG_HASH = new SerializedString("configHash");
  private static final SerializedString MODE = new SerializedString("mode");
  private static final SerializedString DECISION = new SerializedString("decision");
  private static final SerializedString RETRY_REASON = new SerializedString("retryReason");
  private static final SerializedString IDEMPOTENCY_KEY = new SerializedString("idempotencyKey");
  private static final SerializedString REASON = new SerializedString("reason");
  private static final SerializedString WOULD_HAVE = new SerializedString("wouldHave");
  private static final SerializedString CIRCUIT_STATE = new SerializedString("circuitState");
  private static final SerializedString APPROVAL_ID = new SerializedString("approvalId");
  private static final SerializedString APPROVER = new SerializedString("approver");

  /**
   * Writes the event as one JSON object, absent fields left out. Streamed field by field: no map,
   * no intermediate string, and each field's name written from its quoted bytes, encoded once (this
   * runs once per attempt).
   */
  public void writeJson(JsonGenerator out) throws IOException {
    out.writeStartObject();
    field(out, TS, IsoInstant.format(timestamp));
    field(out, EVENT, "tool_attempt");
    field(out, CORRELATION_ID, correlationId);
    field(out, CONVERSATION_ID, conversationId);
    field(out, INTENT_ID, intentId);
    field(out, SESSION_KEY, sessionKey);
    field(out, TOOL, tool);
    field(out, UPSTREAM, upstream);
    number(out, ATTEMPT, attempt);
    field(out, UPSTREAM_REQUEST_ID, upstreamRequestId);
    field(out, RESULT, result);
    number(out, HTTP_STATUS, httpStatus);
    number(out, DURATION_MS, Math.round(durationMs * 1000) / 1000.0);
    field(out, TIMEOUT_LAYER, timeoutLayer);
    field(out, BACKEND_OPERATION_ID, backendOperationId);
    number(out, POLICY_REVISION, policyRevision);
    field(out, CONFIG_HASH, configHash);
    field(out, MODE, mode);
    field(out, DECISION, decision);
    field(out, RETRY_REASON, retryReason);
    field(out, IDEMPOTENCY_KEY, idempotencyKey);
    field(out, REASON, reason);
    field(out, WOULD_HAVE, wouldHave);
    field(out, CIRCUIT_STATE, circuitState);
    field(out, APPROVAL_ID, approvalId);
    field(out, APPROVER, approver);
    out.writeEndObject();
  }

  private static void field(JsonGenerator out, SerializedString name, String value)
      throws IOException {
    if (value != null) {
      out.writeFieldName(name);
      out.writeString(value);
    }
  }

  private static void number(JsonGenerator out, SerializedString name, long value)
      throws IOException {
    out.writeFieldName(name);
    out.writeNumber(value);
  }

  private static void number(JsonGenerator out, SerializedString name, double value)
      throws IOException {
    out.writeFieldName(name);
    out.writeNumber(value);
  }
}
