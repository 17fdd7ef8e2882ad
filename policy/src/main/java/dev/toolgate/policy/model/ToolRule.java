package dev.toolgate.policy.model;

/**
 * The policy of one tool.
 *
 * @param name the MCP tool name
 * @param upstream the upstream that serves it
 * @param effect what the tool does to the backend
 * @param retry bounded retries; none when absent
 * @param breaker the circuit breaker; none when absent
 * @param approval whether a human must approve each call
 * @param idempotency key derivation and lookup, for writes
 * @param mode this tool's mode when it differs from the policy's (e.g. shadow for one tool)
 * @param shareConcurrentCalls for an expensive_read: identical concurrent calls share one backend
 *     call
 * @param breakerGroup tools with the same group share one breaker (equivalent tools), so that
 *     switching to an equivalent tool does not bypass an open circuit
 */
public record ToolRule(
    String name,
    String upstream,
    Effect effect,
    RetryPolicy retry,
    BreakerPolicy breaker,
    Approval approval,
    IdempotencyPolicy idempotency,
    Mode mode,
    Boolean shareConcurrentCalls,
    String breakerGroup) {

  /** The rule without a mode of its own nor call sharing. */
  public ToolRule(
      String name,
      String upstream,
      Effect effect,
      RetryPolicy retry,
      BreakerPolicy breaker,
      Approval approval,
      IdempotencyPolicy idempotency) {
    this(name, upstream, effect, retry, breaker, approval, idempotency, null, null, null);
  }

  public ToolRule {
    effect = effect == null ? Effect.NON_IDEMPOTENT_WRITE : effect;
    retry = retry == null ? RetryPolicy.NONE : retry;
    approval = approval == null ? Approval.NONE : approval;
    shareConcurrentCalls = shareConcurrentCalls != null && shareConcurrentCalls;
  }

  /** The breaker this tool's calls count in: its group's, or its own. */
  public String breakerName() {
    return breakerGroup != null ? breakerGroup : name;
  }

  /**
   * The rule of a tool the policy does not name: the safest reading, a non-idempotent write
   * without retry (DESIGN section 4).
   */
  public static ToolRule unlisted(String name, String upstream) {
    return new ToolRule(
        name, upstream, Effect.NON_IDEMPOTENT_WRITE, RetryPolicy.NONE, null, Approval.NONE, null);
  }
}
