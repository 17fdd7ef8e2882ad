package dev.toolgate.sidecar.state;

/**
 * The state a sidecar keeps about calls, local or shared across replicas.
 *
 * @param idempotency write records by key
 * @param quotas session and agent usage
 * @param circuits breaker news between replicas
 */
public record Stores(IdempotencyStore idempotency, QuotaStore quotas, SharedCircuits circuits) {

  /** How long a write's idempotency record (and its answer, for replay) is kept. */
  public static final long IDEMPOTENCY_RECORD_TTL_MS = 3_600_000;

  public static Stores local() {
    return new Stores(
        IdempotencyStore.inMemory(IDEMPOTENCY_RECORD_TTL_MS),
        QuotaStore.inMemory(),
        SharedCircuits.none());
  }
}
