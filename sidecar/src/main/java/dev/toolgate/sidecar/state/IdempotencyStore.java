package dev.toolgate.sidecar.state;

import dev.toolgate.policy.idempotency.IdempotencyRecord;
import io.vertx.core.Future;

/**
 * Where writes are remembered by idempotency key. Each operation is atomic for its key, so two
 * replicas (or two event loops) cannot both take a key. An in-memory implementation serves one
 * sidecar; the shared one (Hazelcast) comes with the breaker/quota work.
 */
public interface IdempotencyStore {

  /**
   * Takes the key for a call if nobody holds it.
   *
   * @return null when this call took the key (now in flight), else the record that exists
   */
  Future<IdempotencyRecord> begin(
      String key, String argumentsHash, String correlationId, long nowMs);

  /** The backend answered: keep the answer, to replay it. */
  Future<Void> complete(String key, String answer, String operationId, long nowMs);

  /** The write reached the backend with an unknown outcome. */
  Future<Void> markAmbiguous(String key, String operationId, long nowMs);

  /** The write certainly did not happen (refused, unreachable): the key is free again. */
  Future<Void> release(String key);

  /** Drops records past their lifetime (a shared store expires them itself). */
  default void expire(long nowMs) {}

  static IdempotencyStore inMemory(long recordTtlMs) {
    return new InMemoryIdempotencyStore(recordTtlMs);
  }
}
