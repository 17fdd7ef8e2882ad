package dev.toolgate.policy.idempotency;

import java.util.Map;

/**
 * What an idempotency key may be derived from.
 *
 * @param tool the tool name
 * @param arguments the call's arguments, as parsed JSON
 * @param intentId the intent the call serves
 * @param approvalId the id of the approval token, when the call carries one
 * @param sessionKey the session
 */
public record KeyInputs(
    String tool,
    Map<String, Object> arguments,
    String intentId,
    String approvalId,
    String sessionKey) {}
