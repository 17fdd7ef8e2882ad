package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.admission.Admission.ApprovalStatus;
import dev.toolgate.policy.approval.ApprovalCheck;
import dev.toolgate.policy.approval.ApprovalClaims;
import dev.toolgate.sidecar.approval.ApprovalTokens;
import dev.toolgate.sidecar.approval.InvalidApprovalException;
import io.vertx.core.Future;

/**
 * The approval a call of a tool that needs one carries: verified against the tool and the call's
 * exact arguments, then spent on one operation (the write's idempotency key, so a relaunch of the
 * same write may present it again, or the call itself), once in the whole cluster.
 */
final class CallApproval {

  /** The prefix of an approval's record among the idempotency records. */
  static final String SPENT = "approval/";

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

  /** Who approved, for the evidence; null without a verified approval. */
  String approver() {
    return claims == null ? null : claims.approver();
  }

  /**
   * Spends the approval on {@code operation}, once across every replica: the first call to spend it
   * takes a record in the shared state (where idempotency records live, scoped there by namespace),
   * kept as long as an approval may hold. False when it was spent on another operation; a failure
   * when the shared state cannot say (the call is then refused, never let through).
   */
  Future<Boolean> spendOn(String operation) {
    if (claims == null) {
      return Future.succeededFuture(true);
    }
    return s.idempotency()
        .begin(SPENT + claims.approvalId(), operation, operation, s.clock().millis())
        .map(previous -> previous == null || previous.argumentsHash().equals(operation));
  }
}
