package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.admission.Admission.ApprovalStatus;
import dev.toolgate.policy.approval.ApprovalCheck;
import dev.toolgate.policy.approval.ApprovalClaims;
import dev.toolgate.sidecar.approval.ApprovalTokens;
import dev.toolgate.sidecar.approval.InvalidApprovalException;

/**
 * The approval a call of a tool that needs one carries: verified against the tool and the call's
 * exact arguments, then spent on one operation (the write's idempotency key, so a relaunch of the
 * same write may present it again, or the call itself).
 */
final class CallApproval {

  private final CallServices s;
  private final CallIdentity id;
  private final ApprovalTokens keys;
  private ApprovalClaims claims;

  CallApproval(CallServices s, CallIdentity id, ApprovalTokens keys) {
    this.s = s;
    this.id = id;
    this.keys = keys;
  }

  /** What the call carries, for the admission decision. */
  ApprovalStatus status() {
    String token = id.approvalToken();
    if (token == null) {
      return ApprovalStatus.NONE;
    }
    if (keys == null) {
      return ApprovalStatus.refused("no approval key is configured on this sidecar");
    }
    try {
      ApprovalClaims verified = keys.verify(token);
      String refusal =
          ApprovalCheck.refusal(
              verified, id.tool(), id.argumentsHash(), s.clock().millis() / 1000, used -> false);
      if (refusal != null) {
        return ApprovalStatus.refused(refusal);
      }
      claims = verified;
      return ApprovalStatus.VALID;
    } catch (InvalidApprovalException e) {
      return ApprovalStatus.refused(e.getMessage());
    }
  }

  /** The verified approval's id, a key component; null without one. */
  String approvalId() {
    return claims == null ? null : claims.approvalId();
  }

  /** Spends the approval on {@code operation}; false when it was spent on another one. */
  boolean spendOn(String operation) {
    if (claims == null) {
      return true;
    }
    return s.usedApprovals()
        .consume(
            claims.approvalId(), operation, claims.expiresAtSeconds(), s.clock().millis() / 1000);
  }
}
