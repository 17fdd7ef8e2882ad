package dev.toolgate.policy.approval;

/**
 * What a human approved: one call of one tool with these arguments, until a time, once.
 *
 * @param approvalId the token's unique id ({@code jti}); the {@code approval_id} key component
 * @param tool the tool approved
 * @param argumentsHash the hash of the canonical arguments approved (the target)
 * @param approver who approved, for the evidence
 * @param issuedAtSeconds when it was minted (epoch seconds)
 * @param expiresAtSeconds when it stops being valid (epoch seconds)
 */
public record ApprovalClaims(
    String approvalId,
    String tool,
    String argumentsHash,
    String approver,
    long issuedAtSeconds,
    long expiresAtSeconds) {}
