package dev.toolgate.policy.retry;

/**
 * Whether to retry, after how long, and why (or why not): a decision always comes with its reason.
 *
 * @param retry whether another attempt may start
 * @param delayMs how long to wait before it
 * @param reason why, in words an operator reads in the event
 */
public record RetryDecision(boolean retry, long delayMs, String reason) {

  static RetryDecision no(String reason) {
    return new RetryDecision(false, 0, reason);
  }

  static RetryDecision after(long delayMs, String reason) {
    return new RetryDecision(true, delayMs, reason);
  }
}
