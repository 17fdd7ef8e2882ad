package dev.toolgate.policy.approval;

import java.util.function.Predicate;

/**
 * Checks a verified token's claims against the call: the right tool, the same arguments, not
 * expired, not used before. Signature checking is the caller's (it holds the key); this is the part
 * that decides. Pure.
 */
public final class ApprovalCheck {

  private ApprovalCheck() {}

  /**
   * @param claims the claims of a token whose signature was verified
   * @param tool the tool called
   * @param argumentsHash the hash of the call's canonical arguments
   * @param nowSeconds the time (epoch seconds)
   * @param alreadyUsed whether an approval id was consumed before
   * @return null when the approval holds, else the reason it does not
   */
  public static String refusal(
      ApprovalClaims claims,
      String tool,
      String argumentsHash,
      long nowSeconds,
      Predicate<String> alreadyUsed) {
    if (!tool.equals(claims.tool())) {
      return "the approval is for tool '" + claims.tool() + "', not '" + tool + "'";
    }
    if (!argumentsHash.equals(claims.argumentsHash())) {
      return "the approval is for other arguments than this call's";
    }
    if (nowSeconds >= claims.expiresAtSeconds()) {
      return "the approval expired " + (nowSeconds - claims.expiresAtSeconds()) + " s ago";
    }
    if (alreadyUsed.test(claims.approvalId())) {
      return "the approval " + claims.approvalId() + " was already used (approvals are single-use)";
    }
    return null;
  }
}
