package dev.toolgate.trust;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.Ed25519Signer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The signed form of a sidecar configuration: the YAML document unchanged, then one last line
 * {@code # toolgate-signature: <JWS>}, a YAML comment holding a compact JWS (EdDSA) over the bytes
 * before it, with a detached payload. The file stays readable and valid YAML, and the document and
 * its signature change together (one file, one ConfigMap key, one published value).
 */
public final class ConfigSignatures {

  /** What starts the signature line. */
  public static final String PREFIX = "# toolgate-signature: ";

  static final JOSEObjectType TYPE = new JOSEObjectType("toolgate-config+jws");
  static final String SEQUENCE = "seq";
  static final String ROLLBACK = "rollback";

  private ConfigSignatures() {}

  /**
   * Signs {@code document} (a newline is added when it does not end with one).
   *
   * @param sequence the publication number, higher than every earlier publication's
   * @param rollback whether this document rolls back to an older revision
   */
  public static byte[] sign(byte[] document, SigningKey key, long sequence, boolean rollback) {
    if (sequence < 0) {
      throw new IllegalArgumentException("sequence must be >= 0, was " + sequence);
    }
    byte[] body = endWithNewline(document);
    JWSHeader header =
        new JWSHeader.Builder(JWSAlgorithm.EdDSA)
            .type(TYPE)
            .keyID(key.keyId())
            .customParam(SEQUENCE, sequence)
            .customParam(ROLLBACK, rollback)
            .build();
    JWSObject jws = new JWSObject(header, new Payload(body));
    try {
      jws.sign(new Ed25519Signer(key.jwk()));
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot sign with key " + key.keyId() + ": " + e, e);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 256);
    out.writeBytes(body);
    out.writeBytes((PREFIX + jws.serialize(true) + "\n").getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  /** The document and the JWS of its signature line, when it has one. */
  record Split(byte[] document, String jws) {}

  static Optional<Split> split(byte[] signed) {
    int end = signed.length;
    while (end > 0 && (signed[end - 1] == '\n' || signed[end - 1] == '\r')) {
      end--;
    }
    int lineStart = end;
    while (lineStart > 0 && signed[lineStart - 1] != '\n') {
      lineStart--;
    }
    String line = new String(signed, lineStart, end - lineStart, StandardCharsets.UTF_8);
    if (!line.startsWith(PREFIX)) {
      return Optional.empty();
    }
    return Optional.of(
        new Split(
            Arrays.copyOfRange(signed, 0, lineStart), line.substring(PREFIX.length()).trim()));
  }

  private static byte[] endWithNewline(byte[] document) {
    if (document.length > 0 && document[document.length - 1] == '\n') {
      return document;
    }
    byte[] body = Arrays.copyOf(document, document.length + 1);
    body[document.length] = '\n';
    return body;
  }
}
