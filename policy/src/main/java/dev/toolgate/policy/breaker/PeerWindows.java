package dev.toolgate.policy.breaker;

/**
 * What the other replicas' windows hold for the same breaker, so that a breaker opens on the
 * failures of the whole agent rather than of one replica.
 */
@FunctionalInterface
public interface PeerWindows {

  /** No peers: this replica alone. */
  PeerWindows NONE = (fromMs, nowMs) -> new WindowSnapshot(0, 0, 0);

  /** The peers' counts of outcomes that ended in {@code [fromMs, nowMs]} and inside the window. */
  WindowSnapshot snapshot(long fromMs, long nowMs);
}
