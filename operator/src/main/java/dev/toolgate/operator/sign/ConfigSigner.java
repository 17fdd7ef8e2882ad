package dev.toolgate.operator.sign;

import dev.toolgate.trust.ConfigSignatures;
import dev.toolgate.trust.SignatureRefused;
import dev.toolgate.trust.SigningKey;
import dev.toolgate.trust.TrustedKeys;
import java.nio.charset.StandardCharsets;

/** Signs rendered configurations with the operator's key. */
public final class ConfigSigner {

  private final SigningKey key;

  public ConfigSigner(SigningKey key) {
    this.key = key;
  }

  public String keyId() {
    return key.keyId();
  }

  /** The public keys the injector gives every sidecar. */
  public TrustedKeys publicKeys() {
    return key.publicKeys();
  }

  /** Whether {@code signed} carries an intact signature of this key (nothing edited it). */
  public boolean verifies(String signed) {
    try {
      key.publicKeys().verify(signed.getBytes(StandardCharsets.UTF_8));
      return true;
    } catch (SignatureRefused | RuntimeException e) {
      return false;
    }
  }

  public String sign(String config, Publication publication) {
    return new String(
        ConfigSignatures.sign(
            config.getBytes(StandardCharsets.UTF_8),
            key,
            publication.sequence(),
            publication.rollback()),
        StandardCharsets.UTF_8);
  }
}
