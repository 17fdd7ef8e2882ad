package dev.toolgate.policy.admission;

import dev.toolgate.policy.model.Approval;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.outcome.AgentCode;
import java.util.List;

/**
 * The first admission steps of a tool call, in DESIGN's order: kill switch, then approval. (Quota
 * and breaker come next; idempotency is decided against the key's record.) A denial never reaches
 * the backend. Pure.
 */
public final class Admission {

  private Admission() {}

  /**
   * The approval a call carries.
   *
   * @param present whether the call carried a token at all
   * @param refusal why the token does not hold, or null when it holds
   */
  public record ApprovalStatus(boolean present, String refusal) {
    public static final ApprovalStatus NONE = new ApprovalStatus(false, null);
    public static final ApprovalStatus VALID = new ApprovalStatus(true, null);

    public static ApprovalStatus refused(String why) {
      return new ApprovalStatus(true, why);
    }
  }

  /**
   * A decision with its reasons.
   *
   * @param admitted whether the call may go on
   * @param code the denial's code, null when admitted
   * @param reasons what was checked and found, in order
   */
  public record Decision(boolean admitted, AgentCode code, List<String> reasons) {}

  /**
   * The decision for a tool the policy does not name under {@code unlistedTools: deny}: refused
   * before anything else, reaching no upstream.
   */
  public static Decision unlistedDenied(String tool, String upstream) {
    return new Decision(
        false,
        AgentCode.POLICY_DENIED,
        List.of(
            "the policy does not name tool '"
                + tool
                + "' of upstream '"
                + upstream
                + "' and refuses unlisted tools (unlistedTools: deny); only the ToolPolicy's"
                + " owner can add it"));
  }

  public static Decision decide(ToolRule rule, boolean blockWrites, ApprovalStatus approval) {
    if (blockWrites && rule.effect().isWrite()) {
      return new Decision(
          false,
          AgentCode.WRITES_BLOCKED,
          List.of(
              "the kill switch blocks writes; "
                  + rule.name()
                  + " is a "
                  + rule.effect().wireName()));
    }
    if (rule.approval() == Approval.HUMAN_REQUIRED) {
      if (!approval.present()) {
        return new Decision(
            false,
            AgentCode.APPROVAL_REQUIRED,
            List.of(rule.name() + " needs a human's approval for this exact call"));
      }
      if (approval.refusal() != null) {
        return new Decision(false, AgentCode.APPROVAL_REQUIRED, List.of(approval.refusal()));
      }
      return new Decision(true, null, List.of("kill switch off or not a write", "approval valid"));
    }
    return new Decision(
        true, null, List.of("kill switch off or not a write", "no approval needed"));
  }
}
