package dev.toolgate.policy.budget;

import dev.toolgate.policy.model.Budget;
import java.util.OptionalLong;

/**
 * The time budget of one tool call, from the outside in (seed 000).
 *
 * <p>The call's deadline is {@code min(transportMs, agentRemaining - reserveForFinalResponseMs)}
 * from the moment the call arrived; each attempt gets {@code min(backendMs, what remains)}. The
 * layer that bounds a timeout is remembered so the event can name it. Immutable; O(1).
 */
public final class CallBudget {

  private final long startMs;
  private final long deadlineMs;
  private final TimeoutLayer callLayer;
  private final long backendMs;

  private CallBudget(long startMs, long deadlineMs, TimeoutLayer callLayer, long backendMs) {
    this.startMs = startMs;
    this.deadlineMs = deadlineMs;
    this.callLayer = callLayer;
    this.backendMs = backendMs;
  }

  /**
   * Plans a call that arrives at {@code nowMs}.
   *
   * @param agentRemainingMs what the agent said it has left, if it said
   */
  public static CallBudget plan(Budget budget, OptionalLong agentRemainingMs, long nowMs) {
    long transport = budget.transportMs();
    if (agentRemainingMs.isPresent()) {
      long agent = agentRemainingMs.getAsLong() - budget.reserveForFinalResponseMs();
      if (agent < transport) {
        return new CallBudget(
            nowMs, nowMs + Math.max(0, agent), TimeoutLayer.AGENT_DEADLINE, budget.backendMs());
      }
    }
    return new CallBudget(nowMs, nowMs + transport, TimeoutLayer.CALL_BUDGET, budget.backendMs());
  }

  /** Milliseconds left before the call's deadline; never negative. */
  public long remainingMs(long nowMs) {
    return Math.max(0, deadlineMs - nowMs);
  }

  public long deadlineMs() {
    return deadlineMs;
  }

  public long elapsedMs(long nowMs) {
    return nowMs - startMs;
  }

  /** The layer that bounds the whole call: the transport budget or the agent's deadline. */
  public TimeoutLayer callLayer() {
    return callLayer;
  }

  /** The timeout of an attempt starting now, and the layer that would expire. */
  public AttemptTimeout attemptTimeout(long nowMs) {
    long remaining = remainingMs(nowMs);
    return backendMs <= remaining
        ? new AttemptTimeout(backendMs, TimeoutLayer.ATTEMPT)
        : new AttemptTimeout(remaining, callLayer);
  }

  /**
   * The timeout of one attempt.
   *
   * @param timeoutMs how long the attempt may take
   * @param layer the layer that expires if it takes longer
   */
  public record AttemptTimeout(long timeoutMs, TimeoutLayer layer) {}
}
