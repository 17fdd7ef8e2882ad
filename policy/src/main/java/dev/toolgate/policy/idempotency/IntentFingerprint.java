package dev.toolgate.policy.idempotency;

import dev.toolgate.policy.json.Hashes;

/**
 * Recognises a relaunched request when the agent runtime gives no intent id: the same session, tool
 * and arguments (canonically) make the same fingerprint. The sidecar keeps fingerprints for a
 * window and gives calls within it the same derived intent id.
 *
 * <p>The arguments enter as their hash ({@link IdempotencyKeys#argumentsHash}), which every call
 * computes anyway: the fingerprint then hashes about a hundred bytes, not the arguments a second
 * time, however long they are. A fingerprint is only ever compared with others made by the same
 * process (its intent registry and its shared calls), so how it is made may change between
 * versions.
 */
public final class IntentFingerprint {

  public static final String DERIVED_PREFIX = "tgi_";

  private IntentFingerprint() {}

  public static String of(String sessionKey, String tool, Object arguments) {
    return ofArgumentsHash(sessionKey, tool, IdempotencyKeys.argumentsHash(arguments));
  }

  /**
   * The same fingerprint from the arguments' hash ({@link IdempotencyKeys#argumentsHash}), already
   * made.
   */
  public static String ofArgumentsHash(String sessionKey, String tool, String argumentsHash) {
    return Hashes.sha256(sessionKey == null ? "" : sessionKey, "\n", tool, "\n", argumentsHash);
  }

  /** The intent id derived for a fingerprint first seen at {@code firstSeenMs}. */
  public static String derivedIntentId(String fingerprint, long firstSeenMs) {
    return DERIVED_PREFIX + Hashes.sha256(fingerprint + "@" + firstSeenMs).substring(0, 22);
  }
}
