package dev.toolgate.policy.budget;

import java.util.Locale;

/** The budget layer that expired, named in every timeout event (seed 000). */
public enum TimeoutLayer {
  /** One attempt's backend timeout ({@code budget.backendMs}). */
  ATTEMPT,
  /** The tool call's budget, retries included ({@code budget.transportMs}). */
  CALL_BUDGET,
  /** The agent's own deadline, less the reserve it keeps to answer. */
  AGENT_DEADLINE;

  private final String wireName = name().toLowerCase(Locale.ROOT);

  public String wireName() {
    return wireName;
  }
}
