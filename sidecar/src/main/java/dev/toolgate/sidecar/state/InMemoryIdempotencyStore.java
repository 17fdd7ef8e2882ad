package dev.toolgate.sidecar.state;

import dev.toolgate.policy.idempotency.IdempotencyRecord;
import dev.toolgate.policy.idempotency.RecordState;
import io.vertx.core.Future;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Idempotency records in this process's memory: atomic per key through {@link
 * ConcurrentHashMap#compute}. Records expire {@code recordTtlMs} after their last change, checked
 * when a key is touched and swept by {@link #expire(long)}.
 */
final class InMemoryIdempotencyStore implements IdempotencyStore {

  private final Map<String, IdempotencyRecord> records = new ConcurrentHashMap<>();
  private final long recordTtlMs;

  InMemoryIdempotencyStore(long recordTtlMs) {
    this.recordTtlMs = recordTtlMs;
  }

  @Override
  public Future<IdempotencyRecord> begin(
      String key, String argumentsHash, String correlationId, long nowMs) {
    IdempotencyRecord[] existing = new IdempotencyRecord[1];
    records.compute(
        key,
        (k, current) -> {
          if (current != null && nowMs - current.updatedAtMs() < recordTtlMs) {
            existing[0] = current;
            return current;
          }
          return new IdempotencyRecord(
              RecordState.IN_FLIGHT, argumentsHash, correlationId, null, null, nowMs);
        });
    return Future.succeededFuture(existing[0]);
  }

  @Override
  public Future<Void> complete(String key, String answer, String operationId, long nowMs) {
    records.computeIfPresent(
        key,
        (k, r) ->
            new IdempotencyRecord(
                RecordState.COMPLETED,
                r.argumentsHash(),
                r.correlationId(),
                answer,
                operationId,
                nowMs));
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> markAmbiguous(String key, String operationId, long nowMs) {
    records.computeIfPresent(
        key,
        (k, r) ->
            new IdempotencyRecord(
                RecordState.AMBIGUOUS,
                r.argumentsHash(),
                r.correlationId(),
                null,
                operationId != null ? operationId : r.operationId(),
                nowMs));
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> release(String key) {
    records.remove(key);
    return Future.succeededFuture();
  }

  @Override
  public void expire(long nowMs) {
    records.values().removeIf(r -> nowMs - r.updatedAtMs() >= recordTtlMs);
  }
}
