package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/**
 * Time budgets from the outside in (seed 000): each inner layer must expire before the outer one,
 * leaving the outer layers time to report the failure.
 */
public record Budget(
    @JsonPropertyDescription("The user's deadline for the whole journey.")
        @Min(1)
        @Max(Bounds.DAY_MS)
        Long journeyMs,
    @JsonPropertyDescription("The agent runtime's deadline.") @Min(1) @Max(Bounds.DAY_MS)
        Long agentMs,
    @JsonPropertyDescription("What the agent keeps to answer after the last tool call.")
        @Min(0)
        @Max(Bounds.DAY_MS)
        Long reserveForFinalResponseMs,
    @JsonPropertyDescription(
            "The MCP transport timeout: the budget of one tool call, retries included.")
        @Min(1)
        @Max(Bounds.DAY_MS)
        Long transportMs,
    @JsonPropertyDescription("The timeout of one attempt against the backend.")
        @Min(1)
        @Max(Bounds.DAY_MS)
        Long backendMs) {

  public static final long DEFAULT_JOURNEY_MS = 20_000;
  public static final long DEFAULT_AGENT_MS = 15_000;
  public static final long DEFAULT_RESERVE_FOR_FINAL_RESPONSE_MS = 3_000;
  public static final long DEFAULT_TRANSPORT_MS = 10_000;
  public static final long DEFAULT_BACKEND_MS = 7_000;

  public static final Budget DEFAULT = new Budget(null, null, null, null, null);

  public Budget {
    journeyMs = journeyMs == null ? DEFAULT_JOURNEY_MS : journeyMs;
    agentMs = agentMs == null ? DEFAULT_AGENT_MS : agentMs;
    reserveForFinalResponseMs =
        reserveForFinalResponseMs == null
            ? DEFAULT_RESERVE_FOR_FINAL_RESPONSE_MS
            : reserveForFinalResponseMs;
    transportMs = transportMs == null ? DEFAULT_TRANSPORT_MS : transportMs;
    backendMs = backendMs == null ? DEFAULT_BACKEND_MS : backendMs;
  }
}
