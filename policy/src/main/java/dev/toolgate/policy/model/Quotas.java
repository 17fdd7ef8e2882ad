package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Per-session quotas (seed 002). */
public record Quotas(
    @JsonPropertyDescription("Calls allowed per session.") SessionQuota perSession,
    @JsonPropertyDescription(
            "Calls allowed to all sessions of the agent together; none when absent.")
        SessionQuota perAgent,
    @JsonPropertyDescription("Calls per minute allowed to one session: stops a runaway loop early.")
        Integer ratePerMinute,
    @JsonPropertyDescription("A session's counters expire after this long without a call.")
        Integer idleExpirySeconds,
    @JsonPropertyDescription("Who is told of a write-quota block.") @JsonProperty("notify")
        QuotaNotify notification) {
  public static final int DEFAULT_IDLE_EXPIRY_SECONDS = 3_600;
  public static final int DEFAULT_RATE_PER_MINUTE = 120;

  public static final Quotas DEFAULT = new Quotas(null, null, null, null, null);

  public Quotas {
    ratePerMinute = ratePerMinute == null ? DEFAULT_RATE_PER_MINUTE : ratePerMinute;
    perSession = perSession == null ? SessionQuota.DEFAULT : perSession;
    idleExpirySeconds = idleExpirySeconds == null ? DEFAULT_IDLE_EXPIRY_SECONDS : idleExpirySeconds;
  }
}
