package dev.toolgate.policy.model;

import dev.toolgate.policy.outcome.ResultClass;
import java.util.List;

/**
 * Bounded retries of one tool.
 *
 * @param maxAttempts attempts in all, the first included; 1 means no retry
 * @param retryOn the result classes that may be retried
 * @param backoff the delay between attempts
 */
public record RetryPolicy(Integer maxAttempts, List<ResultClass> retryOn, Backoff backoff) {
  public static final int DEFAULT_MAX_ATTEMPTS = 1;

  /** No retry: the default of a tool the policy does not name. */
  public static final RetryPolicy NONE = new RetryPolicy(1, List.of(), Backoff.DEFAULT);

  public RetryPolicy {
    maxAttempts = maxAttempts == null ? DEFAULT_MAX_ATTEMPTS : maxAttempts;
    retryOn = retryOn == null ? List.of() : List.copyOf(retryOn);
    backoff = backoff == null ? Backoff.DEFAULT : backoff;
  }
}
