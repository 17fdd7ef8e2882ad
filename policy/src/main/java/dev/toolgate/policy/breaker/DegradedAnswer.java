package dev.toolgate.policy.breaker;

import dev.toolgate.policy.model.Fallback;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.outcome.ResultClass;

/**
 * What an open circuit answers besides {@code circuit_open} (seed 000's read-only degraded
 * response): for a read whose breaker asks for it, the last successful result of the same call,
 * marked as cached with its age; for anything else, nothing. A write never gets one.
 */
public enum DegradedAnswer {
  /** No fallback: the refusal alone. */
  NONE,
  /** The last known result of the same tool and arguments, or a statement that none is known. */
  LAST_KNOWN_RESULT;

  /** The fallback of {@code rule}'s breaker. */
  public static DegradedAnswer of(ToolRule rule) {
    return rule.breaker() != null
            && !rule.effect().isWrite()
            && rule.breaker().fallback() == Fallback.READ_ONLY_DEGRADED_RESPONSE
        ? LAST_KNOWN_RESULT
        : NONE;
  }

  /** Whether an attempt that came to {@code result} is kept for a later degraded answer. */
  public boolean keeps(ResultClass result) {
    return this == LAST_KNOWN_RESULT && result == ResultClass.SUCCESS;
  }
}
