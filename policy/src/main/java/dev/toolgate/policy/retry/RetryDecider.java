package dev.toolgate.policy.retry;

import dev.toolgate.policy.model.Effect;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.outcome.ResultClass;
import java.util.OptionalLong;
import java.util.function.DoubleSupplier;

/**
 * Decides whether a failed attempt is retried (seed 000, "rendre le retry explicite et borné"):
 * only a result class the tool's policy lists, only while attempts and budget remain, never a
 * non-idempotent write, and never an idempotent write whose outcome is ambiguous (that one is
 * looked up by its key instead). {@code Retry-After} is honoured, and a retry it would push past
 * the budget does not happen. Pure; the sidecar-wide {@link RetryBudget} is consulted after.
 */
public final class RetryDecider {

  /** An attempt with less time than this left is not worth starting. */
  public static final long MIN_ATTEMPT_MS = 50;

  private RetryDecider() {}

  /**
   * @param rule the tool's rule
   * @param result what the attempt came to
   * @param ambiguous whether the request reached the backend and its outcome is unknown
   * @param attempt the attempt that just ended, 1-based
   * @param remainingMs the call's budget left now
   * @param retryAfterMs the backend's {@code Retry-After}, if it sent one
   * @param random uniform in [0, 1), for the jitter
   */
  public static RetryDecision decide(
      ToolRule rule,
      ResultClass result,
      boolean ambiguous,
      int attempt,
      long remainingMs,
      OptionalLong retryAfterMs,
      DoubleSupplier random) {
    if (!result.isBackendFailure()) {
      return RetryDecision.no(result.wireName() + " is not a transient failure");
    }
    if (rule.effect() == Effect.NON_IDEMPOTENT_WRITE) {
      return RetryDecision.no("a non_idempotent_write is never retried automatically");
    }
    if (rule.effect() == Effect.IDEMPOTENT_WRITE && ambiguous) {
      return RetryDecision.no(
          "the write may have been accepted; its operation is looked up by key");
    }
    if (!rule.retry().retryOn().contains(result)) {
      return RetryDecision.no(result.wireName() + " is not in retryOn");
    }
    if (attempt >= rule.retry().maxAttempts()) {
      return RetryDecision.no("maxAttempts (" + rule.retry().maxAttempts() + ") reached");
    }
    long delay = FullJitterBackoff.delayMs(rule.retry().backoff(), attempt, random);
    String why = "retry " + attempt + " after " + result.wireName();
    if (retryAfterMs.isPresent()) {
      long asked = retryAfterMs.getAsLong();
      if (asked + MIN_ATTEMPT_MS > remainingMs) {
        return RetryDecision.no(
            "Retry-After (" + asked + " ms) exceeds the budget left (" + remainingMs + " ms)");
      }
      if (asked > delay) {
        delay = asked;
        why += ", honouring Retry-After";
      }
    }
    if (delay + MIN_ATTEMPT_MS > remainingMs) {
      return RetryDecision.no(
          "no budget left for another attempt ("
              + remainingMs
              + " ms left, backoff "
              + delay
              + " ms)");
    }
    return RetryDecision.after(delay, why);
  }

  /**
   * A retry the tool's policy allows, checked against what the sidecar knows besides: an open
   * circuit stops it, and so does the sidecar-wide retry budget. The budget is asked only for a
   * retry nothing else stopped ({@code budgetGrants} is read last), since asking spends it.
   *
   * @param decision the tool policy's decision ({@link #decide})
   * @param circuitOpen whether the tool's circuit is open now
   * @param budgetGrants asks the retry budget for one retry; called at most once
   */
  public static RetryDecision withVetoes(
      RetryDecision decision,
      boolean circuitOpen,
      java.util.function.BooleanSupplier budgetGrants) {
    if (!decision.retry()) {
      return decision;
    }
    if (circuitOpen) {
      return RetryDecision.no("the circuit opened");
    }
    if (!budgetGrants.getAsBoolean()) {
      return RetryDecision.no("the sidecar-wide retry budget is spent");
    }
    return decision;
  }
}
