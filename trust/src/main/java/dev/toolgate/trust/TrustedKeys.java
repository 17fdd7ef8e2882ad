package dev.toolgate.trust;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetKeyPair;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The public keys a sidecar trusts for its configuration: a JWK set of Ed25519 keys, each with its
 * key id, so the operator's key can rotate (publish the new key beside the old, then sign with it).
 * A set that holds a private key is refused: sidecars hold public keys only.
 */
public final class TrustedKeys {

  private final List<OctetKeyPair> keys;

  private TrustedKeys(List<OctetKeyPair> keys) {
    this.keys = List.copyOf(keys);
  }

  static TrustedKeys of(OctetKeyPair publicKey) {
    return new TrustedKeys(List.of(publicKey));
  }

  /** Reads a JWK set ({@code {"keys": [...]}}). */
  public static TrustedKeys parse(String json) {
    JWKSet set;
    try {
      set = JWKSet.parse(json);
    } catch (ParseException e) {
      throw new IllegalArgumentException("not a JWK set: " + e.getMessage(), e);
    }
    List<OctetKeyPair> keys = new ArrayList<>();
    for (JWK key : set.getKeys()) {
      if (!(key instanceof OctetKeyPair okp) || !Curve.Ed25519.equals(okp.getCurve())) {
        throw new IllegalArgumentException(
            "key " + key.getKeyID() + " is not an Ed25519 key (kty OKP, crv Ed25519)");
      }
      if (okp.isPrivate()) {
        throw new IllegalArgumentException(
            "key "
                + okp.getKeyID()
                + " holds a private part (\"d\"): a sidecar must be given public keys only");
      }
      if (okp.getKeyID() == null || okp.getKeyID().isBlank()) {
        throw new IllegalArgumentException("a key has no key id (\"kid\")");
      }
      keys.add(okp);
    }
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("the key set holds no key");
    }
    return new TrustedKeys(keys);
  }

  /** The set as JSON, to mount into the sidecars. */
  public String toJson() {
    return new JWKSet(List.copyOf(keys)).toString(true);
  }

  /** This set and {@code other}'s keys, for a rotation. */
  public TrustedKeys and(TrustedKeys other) {
    List<OctetKeyPair> both = new ArrayList<>(keys);
    other.keys.stream()
        .filter(k -> keys.stream().noneMatch(mine -> mine.getKeyID().equals(k.getKeyID())))
        .forEach(both::add);
    return new TrustedKeys(both);
  }

  /** The key with this id, if the set holds it. */
  Optional<OctetKeyPair> key(String keyId) {
    return keys.stream().filter(k -> k.getKeyID().equals(keyId)).findFirst();
  }

  public List<String> keyIds() {
    return keys.stream().map(OctetKeyPair::getKeyID).toList();
  }

  /** Checks the signature line of {@code signed} against these keys. */
  public SignedConfig verify(byte[] signed) throws SignatureRefused {
    ConfigSignatures.Split split =
        ConfigSignatures.split(signed)
            .orElseThrow(
                () ->
                    new SignatureRefused(
                        SignatureRefused.Reason.UNSIGNED,
                        "the document has no signature line (\""
                            + ConfigSignatures.PREFIX.trim()
                            + " ...\")"));
    JWSObject jws;
    try {
      jws = JWSObject.parse(split.jws(), new Payload(split.document()));
    } catch (ParseException e) {
      throw new SignatureRefused(
          SignatureRefused.Reason.MALFORMED, "the signature line is not a JWS: " + e.getMessage());
    }
    if (!JWSAlgorithm.EdDSA.equals(jws.getHeader().getAlgorithm())
        || !ConfigSignatures.TYPE.equals(jws.getHeader().getType())) {
      throw new SignatureRefused(
          SignatureRefused.Reason.MALFORMED,
          "the signature is "
              + jws.getHeader().getAlgorithm()
              + " of type "
              + jws.getHeader().getType()
              + ", not EdDSA of type "
              + ConfigSignatures.TYPE);
    }
    String keyId = jws.getHeader().getKeyID();
    OctetKeyPair key =
        key(keyId)
            .orElseThrow(
                () ->
                    new SignatureRefused(
                        SignatureRefused.Reason.UNKNOWN_KEY,
                        "signed with key id " + keyId + ", not one of " + keyIds()));
    boolean valid;
    try {
      valid = jws.verify(new Ed25519Verifier(key));
    } catch (JOSEException e) {
      valid = false;
    }
    if (!valid) {
      throw new SignatureRefused(
          SignatureRefused.Reason.BAD_SIGNATURE,
          "the signature of key " + keyId + " does not match the document");
    }
    Map<String, Object> params = jws.getHeader().getCustomParams();
    if (!(params.get(ConfigSignatures.SEQUENCE) instanceof Number sequence)
        || !(params.get(ConfigSignatures.ROLLBACK) instanceof Boolean rollback)) {
      throw new SignatureRefused(
          SignatureRefused.Reason.MALFORMED,
          "the signature does not say the publication's sequence and whether it is a rollback");
    }
    return new SignedConfig(split.document(), keyId, sequence.longValue(), rollback);
  }
}
