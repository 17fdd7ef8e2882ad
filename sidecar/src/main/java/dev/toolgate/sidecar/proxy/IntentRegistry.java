package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.idempotency.IntentFingerprint;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Gives calls without an intent id a derived one, the same for identical requests (same session,
 * tool and canonical arguments) seen within the window of each other: an operator relaunching the
 * same request is recognised as the same intent.
 */
final class IntentRegistry {

  private record Seen(String intentId, long lastSeenMs) {}

  private final Map<String, Seen> byFingerprint = new ConcurrentHashMap<>();

  /**
   * The intent id of a call that arrived at {@code nowMs}. A call may ask after a later one did
   * (its identity is derived once its request is upstream), so the last sighting never moves back.
   */
  String intentFor(String fingerprint, long nowMs, long windowMs) {
    return byFingerprint
        .compute(
            fingerprint,
            (f, seen) ->
                seen != null && nowMs - seen.lastSeenMs() < windowMs
                    ? new Seen(seen.intentId(), Math.max(nowMs, seen.lastSeenMs()))
                    : new Seen(IntentFingerprint.derivedIntentId(f, nowMs), nowMs))
        .intentId();
  }

  void expire(long nowMs, long windowMs) {
    byFingerprint.values().removeIf(s -> nowMs - s.lastSeenMs() >= windowMs);
  }
}
