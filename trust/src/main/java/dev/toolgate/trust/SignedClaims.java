package dev.toolgate.trust;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.Ed25519Signer;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.util.Map;

/**
 * Claims signed as a compact JWT (EdDSA, Ed25519) with a type of their own, so a token minted for
 * one purpose (an approval) is never accepted for another. The signer holds a {@link SigningKey};
 * the verifier only {@link TrustedKeys}, public keys chosen by key id.
 */
public final class SignedClaims {

  private final JOSEObjectType type;

  private SignedClaims(JOSEObjectType type) {
    this.type = type;
  }

  /** Tokens of this type ({@code typ} header), e.g. {@code toolgate-approval+jwt}. */
  public static SignedClaims ofType(String type) {
    if (type == null || type.isBlank()) {
      throw new IllegalArgumentException("signed claims need a type");
    }
    return new SignedClaims(new JOSEObjectType(type));
  }

  /** A compact JWT of these claims (string, number and boolean values). */
  public String sign(Map<String, Object> claims, SigningKey key) {
    JWTClaimsSet.Builder set = new JWTClaimsSet.Builder();
    claims.forEach(set::claim);
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.EdDSA).type(type).keyID(key.keyId()).build(),
            set.build());
    try {
      jwt.sign(new Ed25519Signer(key.jwk()));
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot sign with key " + key.keyId() + ": " + e, e);
    }
    return jwt.serialize();
  }

  /**
   * The claims of a token one of {@code keys} signed, as its JSON object.
   *
   * @throws SignatureRefused naming why: not a JWT of this type, unknown key, bad signature
   */
  public Map<String, Object> verify(String token, TrustedKeys keys) throws SignatureRefused {
    SignedJWT jwt;
    try {
      jwt = SignedJWT.parse(token);
    } catch (ParseException e) {
      throw new SignatureRefused(
          SignatureRefused.Reason.MALFORMED, "not a signed JWT: " + e.getMessage());
    }
    JWSHeader header = jwt.getHeader();
    if (!JWSAlgorithm.EdDSA.equals(header.getAlgorithm()) || !type.equals(header.getType())) {
      throw new SignatureRefused(
          SignatureRefused.Reason.MALFORMED,
          "the token is "
              + header.getAlgorithm()
              + " of type "
              + header.getType()
              + ", not EdDSA of type "
              + type);
    }
    OctetKeyPair key =
        keys.key(header.getKeyID())
            .orElseThrow(
                () ->
                    new SignatureRefused(
                        SignatureRefused.Reason.UNKNOWN_KEY,
                        "signed with key id "
                            + header.getKeyID()
                            + ", not one of "
                            + keys.keyIds()));
    boolean valid;
    try {
      valid = jwt.verify(new Ed25519Verifier(key));
    } catch (JOSEException e) {
      valid = false;
    }
    if (!valid) {
      throw new SignatureRefused(
          SignatureRefused.Reason.BAD_SIGNATURE,
          "the signature of key " + header.getKeyID() + " does not match the token");
    }
    try {
      return jwt.getJWTClaimsSet().toJSONObject();
    } catch (ParseException e) {
      throw new SignatureRefused(
          SignatureRefused.Reason.MALFORMED, "the token's claims are not a JSON object");
    }
  }
}
