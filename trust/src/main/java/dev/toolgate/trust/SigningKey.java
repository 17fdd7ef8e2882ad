package dev.toolgate.trust;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.text.ParseException;

/**
 * An Ed25519 private key with its key id, as a JWK: what the operator signs configurations with. It
 * lives in a Secret only the operator reads and never reaches a pod.
 */
public final class SigningKey {

  private final OctetKeyPair jwk;

  private SigningKey(OctetKeyPair jwk) {
    this.jwk = jwk;
  }

  /** A new key pair. */
  public static SigningKey generate(String keyId) {
    if (keyId == null || keyId.isBlank()) {
      throw new IllegalArgumentException("a signing key needs a key id, for rotation");
    }
    try {
      return new SigningKey(new OctetKeyPairGenerator(Curve.Ed25519).keyID(keyId).generate());
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot generate an Ed25519 key: " + e, e);
    }
  }

  /** Reads a private JWK (OKP, Ed25519, with {@code kid} and {@code d}). */
  public static SigningKey parse(String json) {
    JWK parsed;
    try {
      parsed = JWK.parse(json);
    } catch (ParseException e) {
      throw new IllegalArgumentException("not a JWK: " + e.getMessage(), e);
    }
    if (!(parsed instanceof OctetKeyPair okp) || !Curve.Ed25519.equals(okp.getCurve())) {
      throw new IllegalArgumentException(
          "the signing key must be an Ed25519 key (kty OKP, crv Ed25519), not " + describe(parsed));
    }
    if (!okp.isPrivate()) {
      throw new IllegalArgumentException("the signing key has no private part (\"d\")");
    }
    if (okp.getKeyID() == null || okp.getKeyID().isBlank()) {
      throw new IllegalArgumentException("the signing key has no key id (\"kid\")");
    }
    return new SigningKey(okp);
  }

  public String keyId() {
    return jwk.getKeyID();
  }

  /** The private JWK, to store in the operator's Secret. */
  public String toPrivateJson() {
    return jwk.toJSONString();
  }

  /** The public half, for the sidecars. */
  public TrustedKeys publicKeys() {
    return TrustedKeys.of(jwk.toPublicJWK());
  }

  /**
   * Writes the private key to {@code privateFile} (created readable by its owner only; refused if
   * it exists) and the public key set to {@code publicFile}.
   */
  public void writePair(Path privateFile, Path publicFile) throws IOException {
    Files.createFile(
        privateFile,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(privateFile, toPrivateJson());
    Files.writeString(publicFile, publicKeys().toJson());
  }

  /** Reads a private JWK file. */
  public static SigningKey read(Path file) throws IOException {
    return parse(Files.readString(file));
  }

  OctetKeyPair jwk() {
    return jwk;
  }

  private static String describe(JWK key) {
    return key instanceof OctetKeyPair okp
        ? "kty OKP, crv " + okp.getCurve()
        : "kty " + key.getKeyType();
  }
}
