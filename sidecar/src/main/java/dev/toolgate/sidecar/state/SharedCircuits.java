package dev.toolgate.sidecar.state;

import io.vertx.core.Future;

/**
 * What replicas tell each other about their breakers: that one opened (so all refuse within a
 * second), and who holds the half-open probe permits (so only {@code concurrentProbes} probes run
 * across all replicas).
 */
public interface SharedCircuits {

  /** A breaker opened here at {@code openedAtMs}; it stays open until {@code untilMs}. */
  void opened(String breaker, long openedAtMs, long untilMs);

  /** A breaker closed here. */
  void closed(String breaker);

  /** When another replica opened this breaker, if it is still open (epoch ms); 0 otherwise. */
  long peerOpenedAt(String breaker, long nowMs);

  /**
   * Takes one of the cluster's probe permits for a half-open breaker: its lease, or null if none is
   * free.
   */
  Future<String> acquireProbe(String breaker, int permits, long leaseMs);

  void releaseProbe(String lease);

  /** Publishes this replica's window buckets ({@code [second, calls, failures, slow]}). */
  void publishWindow(String breaker, java.util.List<long[]> buckets, long ttlMs);

  /** The other replicas' counts for this breaker, from {@code fromMs} to now, inside the window. */
  dev.toolgate.policy.breaker.WindowSnapshot peerWindow(
      String breaker, long fromMs, long nowMs, int windowSeconds);

  /** This replica alone. */
  static SharedCircuits none() {
    return new Alone();
  }

  /**
   * No other replica: nothing is published, no peer ever counts. Tests extend it to observe one
   * call.
   */
  class Alone implements SharedCircuits {
    @Override
    public void opened(String breaker, long openedAtMs, long untilMs) {}

    @Override
    public void closed(String breaker) {}

    @Override
    public long peerOpenedAt(String breaker, long nowMs) {
      return 0;
    }

    @Override
    public Future<String> acquireProbe(String breaker, int permits, long leaseMs) {
      return Future.succeededFuture("local");
    }

    @Override
    public void releaseProbe(String lease) {}

    @Override
    public void publishWindow(String breaker, java.util.List<long[]> buckets, long ttlMs) {}

    @Override
    public dev.toolgate.policy.breaker.WindowSnapshot peerWindow(
        String breaker, long fromMs, long nowMs, int windowSeconds) {
      return new dev.toolgate.policy.breaker.WindowSnapshot(0, 0, 0);
    }
  }
}
