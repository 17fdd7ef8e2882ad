package dev.toolgate.policy.model;

/**
 * Time budgets from the outside in (seed 000): each inner layer must expire before the outer one,
 * leaving the outer layers time to report the failure.
 *
 * @param journeyMs the user's deadline for the whole journey
 * @param agentMs the agent runtime's deadline
 * @param reserveForFinalResponseMs what the agent keeps to answer after the last tool call
 * @param transportMs the MCP transport timeout: the budget of one tool call, retries included
 * @param backendMs the timeout of one attempt against the backend
 */
public record Budget(
    Long journeyMs, Long agentMs, Long reserveForFinalResponseMs, Long transportMs, Long backendMs) {

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
