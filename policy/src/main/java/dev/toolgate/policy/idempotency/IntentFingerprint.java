package dev.toolgate.policy.idempotency;

import dev.toolgate.policy.json.CanonicalJson;
import dev.toolgate.policy.json.Hashes;

/**
 * Recognises a relaunched request when the agent runtime gives no intent id: the same session, tool
 * and arguments (canonically) make the same fingerprint. The sidecar keeps fingerprints for a
 * window and gives calls within it the same derived intent id.
 */
public final class IntentFingerprint {

  public static final String DERIVED_PREFIX = "tgi_";

  private IntentFingerprint() {}

  public static String of(String sessionKey, String tool, Object arguments) {
    return ofCanonical(sessionKey, tool, CanonicalJson.of(arguments));
  }

  /** The same fingerprint from the arguments' canonical text ({@link CanonicalJson#of}), already made. */
  public static String ofCanonical(String sessionKey, String tool, CharSequence canonicalArguments) {
    return Hashes.sha256(sessionKey == null ? "" : sessionKey, "\n", tool, "\n", canonicalArguments);
  }

  /** The intent id derived for a fingerprint first seen at {@code firstSeenMs}. */
  public static String derivedIntentId(String fingerprint, long firstSeenMs) {
    return DERIVED_PREFIX + Hashes.sha256(fingerprint + "@" + firstSeenMs).substring(0, 22);
  }
}
