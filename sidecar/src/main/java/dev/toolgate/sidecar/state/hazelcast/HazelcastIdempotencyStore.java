package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import dev.toolgate.policy.idempotency.IdempotencyRecord;
import dev.toolgate.policy.idempotency.RecordState;
import dev.toolgate.sidecar.state.IdempotencyStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;

/**
 * Idempotency records in a Hazelcast map, so a relaunch that lands on another replica is still
 * recognised. Taking a key is one {@code putIfAbsent}; records expire {@code recordTtlMs} after
 * being taken.
 */
public final class HazelcastIdempotencyStore implements IdempotencyStore {

  public static final String RECORDS = "toolgate.idempotency";

  private final Vertx vertx;
  private final IMap<String, String> records;
  private final long recordTtlMs;

  public HazelcastIdempotencyStore(Vertx vertx, HazelcastInstance hazelcast, long recordTtlMs) {
    this.vertx = vertx;
    this.records = hazelcast.getMap(RECORDS);
    this.recordTtlMs = recordTtlMs;
  }

  @Override
  public Future<IdempotencyRecord> begin(
      String key, String argumentsHash, String correlationId, long nowMs) {
    IdempotencyRecord mine =
        new IdempotencyRecord(
            RecordState.IN_FLIGHT, argumentsHash, correlationId, null, null, nowMs);
    return vertx.executeBlocking(
        () ->
            UsageJson.record(
                records.putIfAbsent(
                    key, UsageJson.record(mine), recordTtlMs, TimeUnit.MILLISECONDS)),
        false);
  }

  @Override
  public Future<Void> complete(String key, String answer, String operationId, long nowMs) {
    return change(
        key,
        r ->
            new IdempotencyRecord(
                RecordState.COMPLETED,
                r.argumentsHash(),
                r.correlationId(),
                answer,
                operationId,
                nowMs));
  }

  @Override
  public Future<Void> markAmbiguous(String key, String operationId, long nowMs) {
    return change(
        key,
        r ->
            new IdempotencyRecord(
                RecordState.AMBIGUOUS,
                r.argumentsHash(),
                r.correlationId(),
                null,
                operationId != null ? operationId : r.operationId(),
                nowMs));
  }

  @Override
  public Future<Void> release(String key) {
    return vertx.executeBlocking(
        () -> {
          records.delete(key);
          return null;
        },
        false);
  }

  private Future<Void> change(
      String key, java.util.function.UnaryOperator<IdempotencyRecord> next) {
    return vertx.executeBlocking(
        () ->
            CasMap.update(
                records,
                key,
                current ->
                    current == null
                        ? new CasMap.Step<Void>(null, null)
                        : new CasMap.Step<Void>(
                            UsageJson.record(next.apply(UsageJson.record(current))), null)),
        false);
  }
}
