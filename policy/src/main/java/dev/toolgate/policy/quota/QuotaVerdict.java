package dev.toolgate.policy.quota;

import dev.toolgate.policy.outcome.AgentCode;

/**
 * Whether a call fits the quotas, and if not which limit stopped it.
 *
 * @param allowed whether the call may go on (and was counted)
 * @param code {@code quota_exceeded} or {@code rate_limited} when refused
 * @param limitName the limit, as the policy names it (e.g. {@code quotas.perSession.write})
 * @param limit its value, raises included
 * @param used what was used when the call came
 */
public record QuotaVerdict(boolean allowed, AgentCode code, String limitName, int limit, int used) {

  public static final QuotaVerdict ALLOWED = new QuotaVerdict(true, null, null, 0, 0);

  /** The sentence the agent and the administrator read. */
  public String explain() {
    if (allowed) {
      return "within quotas";
    }
    if ("quotas.newSessionsPerMinute".equals(limitName)) {
      return "new-session limit reached: quotas.newSessionsPerMinute is "
          + limit
          + ", this workload opened "
          + used
          + " sessions in the last minute";
    }
    return code == AgentCode.RATE_LIMITED
        ? "rate limit reached: "
            + limitName
            + " is "
            + limit
            + " calls per minute, this session made "
            + used
            + " in the last minute"
        : "quota reached: " + limitName + " is " + limit + ", " + used + " used";
  }
}
