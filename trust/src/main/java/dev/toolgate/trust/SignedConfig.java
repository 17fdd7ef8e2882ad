package dev.toolgate.trust;

/**
 * A configuration document whose signature verified, with what the signature vouches for.
 *
 * @param document the signed bytes (the YAML without its signature line)
 * @param keyId the id of the key that signed it
 * @param sequence the operator's publication number: every publication has a higher one than the
 *     last, so an older document cannot be replayed over a newer one
 * @param rollback whether the operator published it as a rollback, the only case in which its
 *     revision may be lower than the running one
 */
public record SignedConfig(byte[] document, String keyId, long sequence, boolean rollback) {}
