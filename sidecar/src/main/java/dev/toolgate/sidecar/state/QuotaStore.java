package dev.toolgate.sidecar.state;

import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.quota.QuotaVerdict;
import dev.toolgate.policy.quota.Usage;
import io.vertx.core.Future;

/**
 * Session and agent usage, checked and counted atomically per key. In memory for one sidecar; the
 * shared (Hazelcast) one keeps the same contract across replicas.
 */
public interface QuotaStore {

  /** Checks the agent's and the session's quotas and counts the call if both allow it. */
  Future<QuotaVerdict> consume(
      String session, String agent, boolean write, Quotas quotas, long nowMs);

  /** Adds to a session's quota (an administrator's decision). */
  Future<Usage> raise(String session, int reads, int writes, long nowMs);

  /** Forgets a session's usage. */
  Future<Void> reset(String session);

  /**
   * Forgets usage idle for {@code idleMs} (a shared store expires it itself, and returns here what
   * its read leases hold unused). Called periodically.
   */
  default void expire(long nowMs, long idleMs) {}

  /**
   * Gives back what this replica holds and has not used (a shared store's read leases); at
   * shutdown.
   */
  default Future<Void> close() {
    return Future.succeededFuture();
  }

  static QuotaStore inMemory() {
    return new InMemoryQuotaStore();
  }
}
