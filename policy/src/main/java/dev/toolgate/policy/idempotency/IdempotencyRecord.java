package dev.toolgate.policy.idempotency;

/**
 * What the sidecar remembers of a write, by idempotency key.
 *
 * @param state in flight, completed, or ambiguous
 * @param argumentsHash the hash of the arguments the key was first used with
 * @param correlationId the call that holds or held the key
 * @param answer the backend's answer (JSON text), once completed
 * @param operationId the backend operation id, when known
 * @param updatedAtMs when the record last changed
 */
public record IdempotencyRecord(
    RecordState state,
    String argumentsHash,
    String correlationId,
    String answer,
    String operationId,
    long updatedAtMs) {}
