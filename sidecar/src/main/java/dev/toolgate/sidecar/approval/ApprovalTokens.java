package dev.toolgate.sidecar.approval;

import dev.toolgate.policy.approval.ApprovalClaims;
import dev.toolgate.sidecar.state.Stores;
import dev.toolgate.trust.SignatureRefused;
import dev.toolgate.trust.SignedClaims;
import dev.toolgate.trust.SigningKey;
import dev.toolgate.trust.TrustedKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Approval tokens: JWTs signed with EdDSA (Ed25519) by an approver's private key, which never
 * reaches a pod; sidecars hold the public keys only (a JWK set, by key id, so approvers' keys
 * rotate). The claims say which tool, which arguments (their hash), who approved, and until when.
 * The agent cannot mint one: it holds no private key, and neither does its sidecar.
 */
public final class ApprovalTokens {

  /**
   * The token type ({@code typ}): an approval is accepted for nothing else, nor anything as one.
   */
  public static final String TYPE = "toolgate-approval+jwt";

  /**
   * The longest an approval may hold: as long as the shared record that it was used is kept, so a
   * token can never outlive the memory of its use.
   */
  public static final long MAX_LIFETIME_SECONDS = Stores.IDEMPOTENCY_RECORD_TTL_MS / 1000;

  private static final SignedClaims FORMAT = SignedClaims.ofType(TYPE);

  private final TrustedKeys keys;

  private ApprovalTokens(TrustedKeys keys) {
    this.keys = keys;
  }

  /** Verifies tokens signed by one of these public keys. */
  public static ApprovalTokens trusting(TrustedKeys keys) {
    return new ApprovalTokens(keys);
  }

  /** Reads the approvers' public keys, a JWK set; a set holding a private key is refused. */
  public static ApprovalTokens fromFile(Path publicKeys) throws IOException {
    return trusting(TrustedKeys.parse(Files.readString(publicKeys, StandardCharsets.UTF_8)));
  }

  /** Signs {@code claims} with an approver's private key. */
  public static String mint(ApprovalClaims claims, SigningKey key) {
    long lifetime = claims.expiresAtSeconds() - claims.issuedAtSeconds();
    if (lifetime < 1 || lifetime > MAX_LIFETIME_SECONDS) {
      throw new IllegalArgumentException(
          "an approval holds 1 to " + MAX_LIFETIME_SECONDS + " s, was " + lifetime + " s");
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("jti", claims.approvalId());
    json.put("tool", claims.tool());
    json.put("args", claims.argumentsHash());
    json.put("sub", claims.approver());
    json.put("iat", claims.issuedAtSeconds());
    json.put("exp", claims.expiresAtSeconds());
    return FORMAT.sign(json, key);
  }

  /** The key ids these tokens may be signed with. */
  public List<String> keyIds() {
    return keys.keyIds();
  }

  /**
   * The claims of a token one of the trusted keys signed.
   *
   * @throws InvalidApprovalException when the signature, the type or the claims' shape is wrong
   */
  public ApprovalClaims verify(String token) throws InvalidApprovalException {
    Map<String, Object> claims;
    try {
      claims = FORMAT.verify(token, keys);
    } catch (SignatureRefused e) {
      throw new InvalidApprovalException("the approval token is refused: " + e.getMessage());
    }
    if (!(claims.get("jti") instanceof String id)
        || !(claims.get("tool") instanceof String tool)
        || !(claims.get("args") instanceof String args)
        || !(claims.get("sub") instanceof String approver)
        || !(claims.get("iat") instanceof Number iat)
        || !(claims.get("exp") instanceof Number exp)) {
      throw new InvalidApprovalException(
          "the approval token lacks one of jti, tool, args, sub, iat, exp");
    }
    if (exp.longValue() - iat.longValue() > MAX_LIFETIME_SECONDS) {
      throw new InvalidApprovalException(
          "the approval token holds "
              + (exp.longValue() - iat.longValue())
              + " s, more than the "
              + MAX_LIFETIME_SECONDS
              + " s an approval may");
    }
    return new ApprovalClaims(id, tool, args, approver, iat.longValue(), exp.longValue());
  }
}
