package dev.toolgate.operator.crd;

import dev.toolgate.policy.model.Backoff;
import dev.toolgate.policy.model.Budget;
import dev.toolgate.policy.model.HalfOpen;
import java.util.List;

/**
 * The cross-field rules of a ToolPolicy as CEL, for the API server to enforce at admission ({@code
 * x-kubernetes-validations}). They restate {@code PolicyValidator}'s rules (which the operator also
 * applies, with fuller messages) with the model's defaults, so {@code kubectl apply} refuses a bad
 * policy before the operator sees it. Each sits on the narrowest node that holds the fields it
 * compares, so the API server's cost estimate multiplies it by that node's bounds alone; what one
 * field can say alone (ranges, lengths, patterns) is in the schema, not here.
 */
public final class ToolPolicyRules {

  private ToolPolicyRules() {}

  /**
   * One rule of the CRD.
   *
   * @param node where it sits: a dotted path from the resource's root, {@code []} for a list's
   *     items (e.g. {@code spec.tools[].retry.backoff})
   * @param rule the CEL expression, {@code self} being that node
   * @param message what the API server answers when it does not hold
   * @param fieldPath the field the message is about, relative to the node
   * @param reason the API server's reason: {@code FieldValueInvalid}, {@code FieldValueRequired},
   *     {@code FieldValueForbidden} or {@code FieldValueDuplicate}
   */
  public record Rule(String node, String rule, String message, String fieldPath, String reason) {}

  /** A field of {@code self}, or the model's default when absent. */
  private static String orDefault(String field, long modelDefault) {
    return "(has(self." + field + ") ? self." + field + " : " + modelDefault + ")";
  }

  private static final String INVALID = "FieldValueInvalid";
  private static final String REQUIRED = "FieldValueRequired";
  private static final String FORBIDDEN = "FieldValueForbidden";

  private static final String BACKEND_MS = orDefault("backendMs", Budget.DEFAULT_BACKEND_MS);
  private static final String TRANSPORT_MS = orDefault("transportMs", Budget.DEFAULT_TRANSPORT_MS);
  private static final String AGENT_MS = orDefault("agentMs", Budget.DEFAULT_AGENT_MS);
  private static final String RESERVE_MS =
      orDefault("reserveForFinalResponseMs", Budget.DEFAULT_RESERVE_FOR_FINAL_RESPONSE_MS);
  private static final String JOURNEY_MS = orDefault("journeyMs", Budget.DEFAULT_JOURNEY_MS);

  /** A tool retried automatically: more than one attempt. */
  private static final String RETRIED =
      "has(self.retry) && has(self.retry.maxAttempts) && self.retry.maxAttempts > 1";

  private static final String WRITE =
      "(!has(self.effect) || self.effect == 'non_idempotent_write'"
          + " || self.effect == 'idempotent_write')";

  public static final Rule BACKEND_BEFORE_TRANSPORT =
      new Rule(
          "spec.budget",
          BACKEND_MS + " < " + TRANSPORT_MS,
          "backendMs must be < transportMs: an inner timeout expires before the outer one",
          ".backendMs",
          INVALID);

  public static final Rule TRANSPORT_LEAVES_RESERVE =
      new Rule(
          "spec.budget",
          TRANSPORT_MS + " <= " + AGENT_MS + " - " + RESERVE_MS,
          "transportMs must be <= agentMs - reserveForFinalResponseMs: the agent keeps time to"
              + " answer",
          ".transportMs",
          INVALID);

  public static final Rule AGENT_BEFORE_JOURNEY =
      new Rule(
          "spec.budget",
          AGENT_MS + " < " + JOURNEY_MS,
          "agentMs must be < journeyMs",
          ".agentMs",
          INVALID);

  public static final Rule TOOLS_NAME_AN_UPSTREAM =
      new Rule(
          "spec",
          "!has(self.tools) || self.tools.all(t, !has(t.upstream)"
              + " || self.upstreams.exists(u, has(u.name) && u.name == t.upstream))",
          "every tool's upstream must be one of spec.upstreams",
          ".tools",
          INVALID);

  public static final Rule NON_IDEMPOTENT_NEVER_RETRIED =
      new Rule(
          "spec.tools[]",
          "!((!has(self.effect) || self.effect == 'non_idempotent_write') && " + RETRIED + ")",
          "a non_idempotent_write (the default effect) is never retried automatically:"
              + " retry.maxAttempts must be 1",
          ".retry.maxAttempts",
          INVALID);

  public static final Rule RETRIED_WRITE_NEEDS_LOOKUP =
      new Rule(
          "spec.tools[]",
          "!(has(self.effect) && self.effect == 'idempotent_write' && "
              + RETRIED
              + ") || (has(self.idempotency) && has(self.idempotency.lookup))",
          "a write retried automatically needs idempotency.lookup to find its operation after an"
              + " ambiguous timeout",
          ".idempotency",
          REQUIRED);

  public static final Rule ONLY_EXPENSIVE_READS_SHARE =
      new Rule(
          "spec.tools[]",
          "!has(self.shareConcurrentCalls) || !self.shareConcurrentCalls"
              + " || (has(self.effect) && self.effect == 'expensive_read')",
          "only an expensive_read shares concurrent calls",
          ".shareConcurrentCalls",
          FORBIDDEN);

  public static final Rule WRITES_GET_NO_FALLBACK =
      new Rule(
          "spec.tools[]",
          "!(has(self.breaker) && has(self.breaker.fallback)"
              + " && self.breaker.fallback == 'read_only_degraded_response' && "
              + WRITE
              + ")",
          "writes never get a fallback: read_only_degraded_response is for read tools",
          ".breaker.fallback",
          FORBIDDEN);

  public static final Rule BACKOFF_CAP_ABOVE_FIRST =
      new Rule(
          "spec.tools[].retry.backoff",
          orDefault("maxMs", Backoff.DEFAULT_MAX_MS)
              + " >= "
              + orDefault("initialMs", Backoff.DEFAULT_INITIAL_MS),
          "maxMs must be >= initialMs",
          ".maxMs",
          INVALID);

  private static final String PROBES =
      orDefault("concurrentProbes", HalfOpen.DEFAULT_CONCURRENT_PROBES)
          + " <= "
          + orDefault("probeCalls", HalfOpen.DEFAULT_PROBE_CALLS);
  private static final String PROBES_MESSAGE = "concurrentProbes must be <= probeCalls";

  public static final Rule TOOL_PROBES =
      new Rule(
          "spec.tools[].breaker.halfOpen", PROBES, PROBES_MESSAGE, ".concurrentProbes", INVALID);

  public static final Rule DEFAULT_PROBES =
      new Rule(
          "spec.defaults.breaker.halfOpen", PROBES, PROBES_MESSAGE, ".concurrentProbes", INVALID);

  public static final Rule CREDENTIAL_GIVEN =
      new Rule(
          "spec.upstreams[].auth",
          "has(self.bearerTokenFile) || has(self.headerName) || has(self.headerValueFile)"
              + " || has(self.clientCertificateFile) || has(self.clientKeyFile)"
              + " || has(self.trustedCaFile)",
          "give bearerTokenFile, headerName with headerValueFile, or clientCertificateFile with"
              + " clientKeyFile",
          ".bearerTokenFile",
          REQUIRED);

  public static final Rule ONE_HEADER =
      new Rule(
          "spec.upstreams[].auth",
          "!has(self.bearerTokenFile) || !(has(self.headerName) || has(self.headerValueFile))",
          "give either bearerTokenFile or headerName with headerValueFile, not both",
          ".headerName",
          FORBIDDEN);

  public static final Rule HEADER_WITH_VALUE =
      new Rule(
          "spec.upstreams[].auth",
          "has(self.headerName) == has(self.headerValueFile)",
          "headerName and headerValueFile go together",
          ".headerValueFile",
          REQUIRED);

  public static final Rule CERTIFICATE_WITH_KEY =
      new Rule(
          "spec.upstreams[].auth",
          "has(self.clientCertificateFile) == has(self.clientKeyFile)",
          "clientCertificateFile and clientKeyFile go together",
          ".clientKeyFile",
          REQUIRED);

  public static final Rule TLS_FOR_CERTIFICATES =
      new Rule(
          "spec.upstreams[]",
          "!has(self.auth) || !(has(self.auth.clientCertificateFile) || has(self.auth.trustedCaFile))"
              + " || self.url.startsWith('https://')",
          "a client certificate or trusted authorities need an https url",
          ".url",
          INVALID);

  public static final Rule NOTIFICATIONS_SIGNED =
      new Rule(
          "spec.quotas.notify",
          "!has(self.webhookUrl) || has(self.secretFile)",
          "a webhook needs secretFile to sign its notifications",
          ".secretFile",
          REQUIRED);

  /** Every rule, in the order the CRD lists them at each node. */
  public static final List<Rule> ALL =
      List.of(
          TOOLS_NAME_AN_UPSTREAM,
          BACKEND_BEFORE_TRANSPORT,
          TRANSPORT_LEAVES_RESERVE,
          AGENT_BEFORE_JOURNEY,
          NOTIFICATIONS_SIGNED,
          TLS_FOR_CERTIFICATES,
          CREDENTIAL_GIVEN,
          ONE_HEADER,
          HEADER_WITH_VALUE,
          CERTIFICATE_WITH_KEY,
          NON_IDEMPOTENT_NEVER_RETRIED,
          RETRIED_WRITE_NEEDS_LOOKUP,
          ONLY_EXPENSIVE_READS_SHARE,
          WRITES_GET_NO_FALLBACK,
          BACKOFF_CAP_ABOVE_FIRST,
          TOOL_PROBES,
          DEFAULT_PROBES);
}
