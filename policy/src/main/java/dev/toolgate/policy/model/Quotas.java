package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Per-session quotas (seed 002).
 *
 * @param perSession calls allowed per session
 * @param perAgent calls allowed to all sessions of the agent together; none when absent
 * @param ratePerMinute calls per minute allowed to one session: stops a runaway loop early
 * @param idleExpirySeconds a session's counters expire after this long without a call
 * @param notification who is told of a write-quota block
 */
public record Quotas(
    SessionQuota perSession,
    SessionQuota perAgent,
    Integer ratePerMinute,
    Integer idleExpirySeconds,
    @JsonProperty("notify") QuotaNotify notification) {
  public static final int DEFAULT_IDLE_EXPIRY_SECONDS = 3_600;
  public static final int DEFAULT_RATE_PER_MINUTE = 120;

  public static final Quotas DEFAULT = new Quotas(null, null, null, null, null);

  public Quotas {
    ratePerMinute = ratePerMinute == null ? DEFAULT_RATE_PER_MINUTE : ratePerMinute;
    perSession = perSession == null ? SessionQuota.DEFAULT : perSession;
    idleExpirySeconds =
        idleExpirySeconds == null ? DEFAULT_IDLE_EXPIRY_SECONDS : idleExpirySeconds;
  }
}
