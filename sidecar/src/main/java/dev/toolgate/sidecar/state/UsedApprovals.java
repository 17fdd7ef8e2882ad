package dev.toolgate.sidecar.state;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Approval ids already consumed, kept until the approval would have expired anyway. An approval is
 * single-use: it may serve one operation. A relaunch of that same operation (same idempotency key)
 * may present it again and reach the idempotency record; any other use is refused.
 */
public final class UsedApprovals {

  private record Use(String operation, long untilSeconds) {}

  private final Map<String, Use> used = new ConcurrentHashMap<>();

  /**
   * Consumes an approval for an operation; false when it was consumed for another one. Atomic.
   *
   * @param operation what the approval is spent on: the idempotency key, or the call's own id
   */
  public boolean consume(
      String approvalId, String operation, long expiresAtSeconds, long nowSeconds) {
    used.values().removeIf(u -> u.untilSeconds() <= nowSeconds);
    Use previous = used.putIfAbsent(approvalId, new Use(operation, expiresAtSeconds));
    return previous == null || previous.operation().equals(operation);
  }
}
