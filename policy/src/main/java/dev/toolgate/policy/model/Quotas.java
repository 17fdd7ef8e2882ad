package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/**
 * Per-session quotas (seed 002), and the ceiling of the workload (the deployer's {@code agent.id},
 * never what the agent sends) over all its sessions, so that new session ids lift nothing.
 */
public record Quotas(
    @JsonPropertyDescription("Calls allowed per session.") SessionQuota perSession,
    @JsonPropertyDescription(
            "Calls allowed to all sessions of the workload together, reads and writes. When "
                + "absent, the workload is still limited to 10 times perSession (its reads and "
                + "its writes) within the idle window.")
        SessionQuota perAgent,
    @JsonPropertyDescription("Calls per minute allowed to one session: stops a runaway loop early.")
        @Min(1)
        @Max(Bounds.COUNT)
        Integer ratePerMinute,
    @JsonPropertyDescription(
            "A session's (and the workload's) counters expire after this long without a call.")
        @Min(1)
        @Max(Bounds.WEEK_SECONDS)
        Integer idleExpirySeconds,
    @JsonPropertyDescription("Who is told of a write-quota block.") @JsonProperty("notify")
        QuotaNotify notification,
    @JsonPropertyDescription(
            "New sessions the workload may open per minute: a fresh session id does not buy a "
                + "fresh quota faster than this.")
        @Min(1)
        @Max(Bounds.COUNT)
        Integer newSessionsPerMinute) {
  public static final int DEFAULT_IDLE_EXPIRY_SECONDS = 3_600;
  public static final int DEFAULT_RATE_PER_MINUTE = 120;
  public static final int DEFAULT_NEW_SESSIONS_PER_MINUTE = 30;

  /** Without {@code perAgent}, the workload is limited to this many sessions' worth. */
  public static final int DEFAULT_WORKLOAD_SESSIONS = 10;

  public static final Quotas DEFAULT = new Quotas(null, null, null, null, null, null);

  public Quotas(
      SessionQuota perSession,
      SessionQuota perAgent,
      Integer ratePerMinute,
      Integer idleExpirySeconds,
      QuotaNotify notification) {
    this(perSession, perAgent, ratePerMinute, idleExpirySeconds, notification, null);
  }

  public Quotas {
    ratePerMinute = ratePerMinute == null ? DEFAULT_RATE_PER_MINUTE : ratePerMinute;
    perSession = perSession == null ? SessionQuota.DEFAULT : perSession;
    idleExpirySeconds = idleExpirySeconds == null ? DEFAULT_IDLE_EXPIRY_SECONDS : idleExpirySeconds;
    newSessionsPerMinute =
        newSessionsPerMinute == null ? DEFAULT_NEW_SESSIONS_PER_MINUTE : newSessionsPerMinute;
  }

  /** The workload's limits: {@code perAgent}, or by default 10 sessions' worth. */
  public SessionQuota workloadLimit() {
    return perAgent != null
        ? perAgent
        : new SessionQuota(
            multiply(perSession.read(), DEFAULT_WORKLOAD_SESSIONS),
            multiply(perSession.write(), DEFAULT_WORKLOAD_SESSIONS));
  }

  /** This configuration with its notification settings replaced. */
  public Quotas withNotification(QuotaNotify other) {
    return new Quotas(
        perSession, perAgent, ratePerMinute, idleExpirySeconds, other, newSessionsPerMinute);
  }

  private static int multiply(int limit, int times) {
    long product = (long) limit * times;
    return product > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) product;
  }
}
