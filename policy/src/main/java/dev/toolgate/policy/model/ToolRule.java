package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** The policy of one tool, named by its upstream and its name. */
public record ToolRule(
    @JsonPropertyDescription("The MCP tool name.") @Required @Size(min = 1, max = MAX_NAME_LENGTH)
        String name,
    @JsonPropertyDescription("The upstream that serves it.")
        @Required
        @Size(min = 1, max = Upstream.MAX_NAME_LENGTH)
        String upstream,
    @JsonPropertyDescription("What the tool does to the backend.") Effect effect,
    @JsonPropertyDescription("Bounded retries; none when absent.") RetryPolicy retry,
    @JsonPropertyDescription("The circuit breaker; none when absent.") BreakerPolicy breaker,
    @JsonPropertyDescription("Whether a human must approve each call.") Approval approval,
    @JsonPropertyDescription("Key derivation and lookup, for writes.")
        IdempotencyPolicy idempotency,
    @JsonPropertyDescription(
            "This tool's mode when it differs from the policy's (e.g. shadow for one tool).")
        Mode mode,
    @JsonPropertyDescription(
            "For an expensive_read: identical concurrent calls share one backend call.")
        Boolean shareConcurrentCalls,
    @JsonPropertyDescription(
            "Tools with the same group share one breaker (equivalent tools), so that "
                + "switching to an equivalent tool does not bypass an open circuit.")
        @Size(min = 1, max = MAX_NAME_LENGTH)
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

  /** MCP tool names are 1 to 128 characters. */
  public static final int MAX_NAME_LENGTH = 128;

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
}
