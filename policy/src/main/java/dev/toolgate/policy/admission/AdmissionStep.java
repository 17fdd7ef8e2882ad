package dev.toolgate.policy.admission;

import dev.toolgate.policy.model.ToolRule;
import java.util.List;

/**
 * The steps a tool call passes before its first attempt, and their order: kill switch and approval,
 * then the circuit breaker, then, for a write with an idempotency rule, the key's record, and only
 * then quota and rate, so that a call refused or answered without reaching the backend (writes
 * blocked, an open circuit, a replay) uses no quota; for an expensive read shared between identical
 * calls, the call already running is joined after the quota, so each caller pays for its own read.
 * A step that denies ends the call there: nothing after it runs, and a denial never reaches the
 * backend.
 */
public enum AdmissionStep {
  /** The kill switch and the approval, decided together by {@link Admission#decide}. */
  POLICY,
  /** The session's and the agent's quotas and the session's rate. */
  QUOTA,
  /** The circuit breaker of the tool (or its group) and upstream. */
  BREAKER,
  /** The idempotency key's record: proceed, replay, duplicate, ambiguous or mismatch. */
  IDEMPOTENCY,
  /** An identical expensive read already running, whose answer this call shares. */
  SHARED_READ;

  private static final List<AdmissionStep> WRITE_WITH_KEY =
      List.of(POLICY, BREAKER, IDEMPOTENCY, QUOTA);
  private static final List<AdmissionStep> SHARED = List.of(POLICY, BREAKER, QUOTA, SHARED_READ);
  private static final List<AdmissionStep> PLAIN = List.of(POLICY, BREAKER, QUOTA);

  /** The steps of a call of {@code rule}, in the order they run. */
  public static List<AdmissionStep> order(ToolRule rule) {
    if (rule.effect().isWrite() && rule.idempotency() != null) {
      return WRITE_WITH_KEY;
    }
    return rule.shareConcurrentCalls() ? SHARED : PLAIN;
  }
}
