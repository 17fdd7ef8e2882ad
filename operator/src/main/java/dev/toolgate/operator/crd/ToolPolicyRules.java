package dev.toolgate.operator.crd;

/**
 * The cross-field rules of a ToolPolicy as CEL, for the API server to enforce at admission ({@code
 * x-kubernetes-validations}). They restate {@code PolicyValidator}'s rules (which the operator also
 * applies, with fuller messages) with the model's defaults, so {@code kubectl apply} refuses a bad
 * policy before the operator sees it. Each is unit-tested with a CEL evaluator.
 */
public final class ToolPolicyRules {

  private ToolPolicyRules() {}

  public static final String BACKEND_BEFORE_TRANSPORT =
      "!has(self.spec.budget) || (has(self.spec.budget.backendMs) ? self.spec.budget.backendMs : 7000)"
          + " < (has(self.spec.budget.transportMs) ? self.spec.budget.transportMs : 10000)";
  public static final String BACKEND_BEFORE_TRANSPORT_MESSAGE =
      "budget.backendMs must be < budget.transportMs: an inner timeout expires before the outer one";

  public static final String TRANSPORT_LEAVES_RESERVE =
      "!has(self.spec.budget) || (has(self.spec.budget.transportMs) ? self.spec.budget.transportMs : 10000)"
          + " <= (has(self.spec.budget.agentMs) ? self.spec.budget.agentMs : 15000)"
          + " - (has(self.spec.budget.reserveForFinalResponseMs) ? self.spec.budget.reserveForFinalResponseMs : 3000)";
  public static final String TRANSPORT_LEAVES_RESERVE_MESSAGE =
      "budget.transportMs must be <= agentMs - reserveForFinalResponseMs";

  public static final String AGENT_BEFORE_JOURNEY =
      "!has(self.spec.budget) || (has(self.spec.budget.agentMs) ? self.spec.budget.agentMs : 15000)"
          + " < (has(self.spec.budget.journeyMs) ? self.spec.budget.journeyMs : 20000)";
  public static final String AGENT_BEFORE_JOURNEY_MESSAGE =
      "budget.agentMs must be < budget.journeyMs";

  public static final String UPSTREAMS =
      "has(self.spec.upstreams) && size(self.spec.upstreams) > 0 && self.spec.upstreams.all(u,"
          + " has(u.name) && u.name.matches('^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$')"
          + " && has(u.url) && u.url.matches('^https?://[^/]+'))";
  public static final String UPSTREAMS_MESSAGE =
      "at least one upstream; names are URL path segments; URLs are absolute http(s)";

  public static final String ATTEMPTS =
      "!has(self.spec.tools) || self.spec.tools.all(t, !has(t.retry) || !has(t.retry.maxAttempts)"
          + " || (t.retry.maxAttempts >= 1 && t.retry.maxAttempts <= 10))";
  public static final String ATTEMPTS_MESSAGE = "retry.maxAttempts must be in [1, 10]";

  public static final String RATIOS =
      "!has(self.spec.tools) || self.spec.tools.all(t, !has(t.breaker)"
          + " || ((!has(t.breaker.failureRatio) || (t.breaker.failureRatio > 0.0 && t.breaker.failureRatio <= 1.0))"
          + " && (!has(t.breaker.slowCallRatio) || (t.breaker.slowCallRatio > 0.0 && t.breaker.slowCallRatio <= 1.0))))";
  public static final String RATIOS_MESSAGE =
      "breaker failureRatio and slowCallRatio must be in (0, 1]";

  public static final String NON_IDEMPOTENT_NEVER_RETRIED =
      "!has(self.spec.tools) || self.spec.tools.all(t, !((!has(t.effect) || t.effect == 'non_idempotent_write')"
          + " && has(t.retry) && has(t.retry.maxAttempts) && t.retry.maxAttempts > 1))";
  public static final String NON_IDEMPOTENT_NEVER_RETRIED_MESSAGE =
      "a non_idempotent_write is never retried automatically: retry.maxAttempts must be 1";

  public static final String RETRIED_WRITE_NEEDS_LOOKUP =
      "!has(self.spec.tools) || self.spec.tools.all(t, !(has(t.effect) && t.effect == 'idempotent_write'"
          + " && has(t.retry) && has(t.retry.maxAttempts) && t.retry.maxAttempts > 1)"
          + " || (has(t.idempotency) && has(t.idempotency.lookup)))";
  public static final String RETRIED_WRITE_NEEDS_LOOKUP_MESSAGE =
      "a write retried automatically needs idempotency.lookup to find its operation after an ambiguous timeout";
}
