package dev.toolgate.sidecar.approval;

import dev.toolgate.policy.approval.ApprovalClaims;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Approval tokens as compact JWS (HS256): a header, the claims (tool, arguments hash, approver,
 * issue and expiry times, a unique id) and an HMAC-SHA256 over both with a key only the approvers
 * and the sidecars hold (a file a Kubernetes Secret mounts). The agent cannot invent one.
 */
public final class ApprovalTokens {

  /** Shorter keys are refused: HS256 wants at least 256 bits. */
  public static final int MIN_KEY_BYTES = 32;

  private static final String HEADER =
      b64(
          new JsonObject()
              .put("alg", "HS256")
              .put("typ", "JWT")
              .encode()
              .getBytes(StandardCharsets.UTF_8));

  private final byte[] key;

  public ApprovalTokens(byte[] key) {
    if (key.length < MIN_KEY_BYTES) {
      throw new IllegalArgumentException(
          "an approval key needs at least " + MIN_KEY_BYTES + " bytes, was " + key.length);
    }
    this.key = key.clone();
  }

  /** Reads the key file (trailing newlines ignored). */
  public static ApprovalTokens fromFile(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8).stripTrailing();
    return new ApprovalTokens(text.getBytes(StandardCharsets.UTF_8));
  }

  public String mint(ApprovalClaims claims) {
    JsonObject payload =
        new JsonObject()
            .put("jti", claims.approvalId())
            .put("tool", claims.tool())
            .put("args", claims.argumentsHash())
            .put("sub", claims.approver())
            .put("iat", claims.issuedAtSeconds())
            .put("exp", claims.expiresAtSeconds());
    String signingInput = HEADER + "." + b64(payload.encode().getBytes(StandardCharsets.UTF_8));
    return signingInput + "." + b64(hmac(signingInput));
  }

  /** The claims of a token this key signed; throws when the signature or shape is wrong. */
  public ApprovalClaims verify(String token) throws InvalidApprovalException {
    String[] parts = token.split("\\.", -1);
    if (parts.length != 3) {
      throw new InvalidApprovalException("the approval token is not a compact JWS (three parts)");
    }
    byte[] signature;
    try {
      signature = Base64.getUrlDecoder().decode(parts[2]);
    } catch (IllegalArgumentException e) {
      throw new InvalidApprovalException("the approval token's signature is not base64url");
    }
    if (!MessageDigest.isEqual(signature, hmac(parts[0] + "." + parts[1]))) {
      throw new InvalidApprovalException("the approval token's signature does not verify");
    }
    try {
      JsonObject header =
          new JsonObject(
              new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8));
      if (!"HS256".equals(header.getString("alg"))) {
        throw new InvalidApprovalException("the approval token must use HS256");
      }
      JsonObject claims =
          new JsonObject(
              new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8));
      String id = claims.getString("jti");
      String tool = claims.getString("tool");
      String args = claims.getString("args");
      Long exp = claims.getLong("exp");
      if (id == null || tool == null || args == null || exp == null) {
        throw new InvalidApprovalException("the approval token lacks jti, tool, args or exp");
      }
      return new ApprovalClaims(
          id, tool, args, claims.getString("sub"), claims.getLong("iat", 0L), exp);
    } catch (DecodeException | IllegalArgumentException | ClassCastException e) {
      throw new InvalidApprovalException(
          "the approval token's header or claims are not valid JSON");
    }
  }

  private byte[] hmac(String signingInput) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JRE", e);
    }
  }

  private static String b64(byte[] bytes) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
