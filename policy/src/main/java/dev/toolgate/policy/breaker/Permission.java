package dev.toolgate.policy.breaker;

/**
 * What a breaker answered to a call asking to pass.
 *
 * @param verdict permitted, permitted as a half-open probe, or rejected
 * @param state the breaker's state when it answered
 * @param retryInMs for a rejection, how long until the breaker probes again (0 when unknown)
 * @param reason why, in words
 */
public record Permission(Verdict verdict, CircuitState state, long retryInMs, String reason) {

  /** The possible answers. */
  public enum Verdict {
    PERMITTED,
    PROBE,
    REJECTED
  }

  public boolean permitted() {
    return verdict != Verdict.REJECTED;
  }
}
