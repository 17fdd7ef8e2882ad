package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * The rule of every tool the policy does not name, when {@code unlistedTools} is {@code allow}.
 * Such a tool is a {@code non_idempotent_write} (the safest reading of a tool nobody described), so
 * it is never retried; what it gets besides is set here, or derived so that it never has fewer
 * protections than the policy's named writes.
 */
public record UnlistedRule(
    @JsonPropertyDescription(
            "Whether a human must approve each call of an unlisted tool; by default "
                + "human_required when any named write of the policy needs an approval, else none.")
        Approval approval,
    @JsonPropertyDescription(
            "The breaker of the unlisted tools, one per upstream shared by all of them (a new "
                + "tool name does not get a fresh circuit); by default the seed's breaker, failing "
                + "fast.")
        BreakerPolicy breaker) {

  /** The breaker group every unlisted tool of an upstream counts in. */
  public static final String BREAKER_GROUP = "(unlisted)";

  public static final UnlistedRule DERIVED = new UnlistedRule(null, null);

  /** The rule of {@code tool}: these settings, with what is absent derived from the policy. */
  ToolRule ruleFor(String tool, String upstream, Policy policy) {
    Approval effectiveApproval = approval;
    if (effectiveApproval == null) {
      boolean anyApprovedWrite =
          policy.tools().stream()
              .anyMatch(t -> t.effect().isWrite() && t.approval() == Approval.HUMAN_REQUIRED);
      effectiveApproval = anyApprovedWrite ? Approval.HUMAN_REQUIRED : Approval.NONE;
    }
    return new ToolRule(
        tool,
        upstream,
        Effect.NON_IDEMPOTENT_WRITE,
        RetryPolicy.NONE,
        breaker == null ? BreakerPolicy.DEFAULT : breaker,
        effectiveApproval,
        null,
        null,
        null,
        BREAKER_GROUP);
  }
}
