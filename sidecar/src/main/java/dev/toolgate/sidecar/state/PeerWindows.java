package dev.toolgate.sidecar.state;

import dev.toolgate.policy.breaker.WindowSnapshot;
import java.util.Map;

/** The other replicas' window buckets of one breaker, summed over the part of the window asked. */
public final class PeerWindows {

  private PeerWindows() {}

  /**
   * @param byReplica each other replica's buckets, {@code [second, calls, failures, slow]}
   */
  public static WindowSnapshot snapshot(
      Map<String, long[][]> byReplica, long fromMs, long nowMs, int windowSeconds) {
    if (byReplica == null) {
      return new WindowSnapshot(0, 0, 0);
    }
    long now = Math.floorDiv(nowMs, 1000);
    long from = Math.floorDiv(fromMs, 1000);
    int calls = 0;
    int failures = 0;
    int slow = 0;
    for (long[][] buckets : byReplica.values()) {
      for (long[] b : buckets) {
        if (now - b[0] < windowSeconds && b[0] <= now && b[0] >= from) {
          calls += (int) b[1];
          failures += (int) b[2];
          slow += (int) b[3];
        }
      }
    }
    return new WindowSnapshot(calls, failures, slow);
  }
}
