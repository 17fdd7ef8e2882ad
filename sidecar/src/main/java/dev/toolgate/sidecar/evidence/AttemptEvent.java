package dev.toolgate.sidecar.evidence;

import io.vertx.core.json.JsonObject;
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

  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("ts", timestamp.toString())
            .put("event", "tool_attempt")
            .put("correlationId", correlationId)
            .put("conversationId", conversationId)
            .put("intentId", intentId)
            .put("sessionKey", sessionKey)
            .put("tool", tool)
            .put("upstream", upstream)
            .put("attempt", attempt)
            .put("upstreamRequestId", upstreamRequestId)
            .put("result", result)
            .put("httpStatus", httpStatus)
            .put("durationMs", Math.round(durationMs * 1000) / 1000.0)
            .put("timeoutLayer", timeoutLayer)
            .put("backendOperationId", backendOperationId)
            .put("policyRevision", policyRevision)
            .put("configHash", configHash)
            .put("mode", mode)
            .put("decision", decision)
            .put("retryReason", retryReason)
            .put("idempotencyKey", idempotencyKey)
            .put("reason", reason)
            .put("wouldHave", wouldHave)
            .put("circuitState", circuitState);
    json.getMap().values().removeIf(v -> v == null);
    return json;
  }
}
