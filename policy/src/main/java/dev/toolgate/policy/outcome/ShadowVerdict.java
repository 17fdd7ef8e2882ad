package dev.toolgate.policy.outcome;

import dev.toolgate.policy.admission.Admission;
import dev.toolgate.policy.budget.CallBudget;
import dev.toolgate.policy.retry.RetryDecision;
import java.util.Locale;

/**
 * What enforcement would have done with a call that shadow mode relayed untouched: the evidence's
 * {@code wouldHave} ({@code forward}, {@code retry}, {@code fail}, {@code deny:<code>}, {@code
 * timeout:<layer>}) and the metric's {@code would} label (the kind alone).
 *
 * @param kind what enforcement would have done
 * @param detail the denial's code or the expired layer, or null
 */
public record ShadowVerdict(Kind kind, String detail) {

  /** The kinds of verdict. */
  public enum Kind {
    FORWARD,
    RETRY,
    FAIL,
    DENY,
    TIMEOUT;

    private final String wireName = name().toLowerCase(Locale.ROOT);

    public String wireName() {
      return wireName;
    }
  }

  /** {@code kind} or {@code kind:detail}. */
  public String wireName() {
    return detail == null ? kind.wireName() : kind.wireName() + ":" + detail;
  }

  /**
   * The verdict on one relayed attempt, in the order enforcement would have met them: admission
   * first, then the attempt's budget, then the outcome and whether it would have been retried.
   *
   * @param admission the kill switch and approval's decision
   * @param elapsedMs how long the relayed attempt took
   * @param enforced the attempt's timeout had the call been enforced
   * @param answered whether the upstream answered
   * @param result the attempt's result class
   * @param retry what the retry policy decides for that result
   */
  public static ShadowVerdict of(
      Admission.Decision admission,
      long elapsedMs,
      CallBudget.AttemptTimeout enforced,
      boolean answered,
      ResultClass result,
      RetryDecision retry) {
    if (!admission.admitted()) {
      return new ShadowVerdict(Kind.DENY, admission.code().wireName());
    }
    if (elapsedMs > enforced.timeoutMs()) {
      return new ShadowVerdict(Kind.TIMEOUT, enforced.layer().wireName());
    }
    if (!answered || result.isBackendFailure()) {
      return new ShadowVerdict(retry.retry() ? Kind.RETRY : Kind.FAIL, null);
    }
    return new ShadowVerdict(Kind.FORWARD, null);
  }
}
