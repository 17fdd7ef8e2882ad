package dev.toolgate.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.validation.PolicyValidator;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The committed CRD admits and refuses ToolPolicies as the API server would: its schema's bounds
 * and its CEL rules (run with the CEL reference implementation on the nodes they sit on), each
 * refusal named at its field. Whatever it refuses, the operator's own validation refuses too.
 */
class ToolPolicyRulesTest {

  private static CrdAdmission crd;
  private static final List<String> REFUSED = new ArrayList<>();

  @BeforeAll
  static void loadTheCommittedCrd() throws Exception {
    crd = CrdAdmission.ofCommittedCrd();
  }

  private static String policy(String spec) {
    String upstreams =
        spec.contains("upstreams:")
            ? ""
            : "  upstreams: [{name: api, url: 'http://api:8080/mcp'}]\n";
    return "apiVersion: toolgate.dev/v1alpha1\nkind: ToolPolicy\nmetadata: {name: p}\nspec:\n"
        + upstreams
        + spec;
  }

  private static List<String> errors(String spec) {
    List<String> errors = crd.errors(policy(spec));
    if (!errors.isEmpty()) {
      REFUSED.add(policy(spec));
    }
    return errors;
  }

  @Test
  void seed000sPolicyIsAdmitted() throws Exception {
    assertThat(crd.errors(Files.readString(Path.of("../e2e/demo/toolpolicy.yaml")))).isEmpty();
  }

  @Test
  void theExamplePolicyAppliesAsWrittenInAnyNamespace() throws Exception {
    String example = Files.readString(Path.of("../examples/toolpolicy.yaml"));
    ToolPolicy policy = new KubernetesSerialization().unmarshal(example, ToolPolicy.class);

    assertThat(crd.errors(example)).isEmpty();
    assertThat(policy.getMetadata().getNamespace()).isNull();
    assertThat(PolicyValidator.validate(policy.getSpec())).isEmpty();
  }

  @Test
  void budgetLayersMustNestWithTheDefaultsFillingTheGaps() {
    assertThat(errors("  budget: {backendMs: 12000}\n"))
        .containsExactly(
            ".spec.budget.backendMs: " + ToolPolicyRules.BACKEND_BEFORE_TRANSPORT.message());
    assertThat(errors("  budget: {backendMs: 9000}\n")).isEmpty();
    assertThat(errors("  budget: {transportMs: 13000}\n"))
        .containsExactly(
            ".spec.budget.transportMs: " + ToolPolicyRules.TRANSPORT_LEAVES_RESERVE.message());
    assertThat(errors("  budget: {agentMs: 20000}\n"))
        .contains(".spec.budget.agentMs: " + ToolPolicyRules.AGENT_BEFORE_JOURNEY.message());
    assertThat(errors("  mode: enforce\n")).isEmpty();
  }

  @Test
  void upstreamsAreRequiredNamedLikePathSegmentsAndReachedOverHttp() {
    assertThat(
            crd.errors(
                "apiVersion: toolgate.dev/v1alpha1\nkind: ToolPolicy\nmetadata: {name: p}\n"
                    + "spec: {mode: enforce}\n"))
        .containsExactly(".spec.upstreams: Required value");
    assertThat(errors("  upstreams: []\n"))
        .containsExactly(".spec.upstreams: should have at least 1 items");
    assertThat(errors("  upstreams: [{name: 'a b', url: 'http://x/mcp'}]\n"))
        .singleElement()
        .asString()
        .startsWith(".spec.upstreams[0].name: should match");
    assertThat(errors("  upstreams: [{name: api, url: 'ftp://x'}]\n"))
        .singleElement()
        .asString()
        .startsWith(".spec.upstreams[0].url: should match");
    assertThat(errors("  upstreams: [{name: api, url: 'https://x:8443/mcp'}]\n")).isEmpty();
    assertThat(
            errors(
                "  upstreams: [{name: api, url: 'http://a/mcp'}, {name: api, url: 'http://b/mcp'}]\n"))
        .singleElement()
        .asString()
        .startsWith(".spec.upstreams: Duplicate value");
  }

  @Test
  void everyToolNamesOneOfTheUpstreamsOnceOnly() {
    assertThat(errors("  tools: [{name: t, upstream: other, effect: read_only}]\n"))
        .containsExactly(".spec.tools: " + ToolPolicyRules.TOOLS_NAME_AN_UPSTREAM.message());
    assertThat(errors("  tools: [{name: t, effect: read_only}]\n"))
        .containsExactly(".spec.tools[0].upstream: Required value");
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: read_only},"
                    + " {name: t, upstream: api, effect: expensive_read}]\n"))
        .singleElement()
        .asString()
        .startsWith(".spec.tools: Duplicate value");
    assertThat(
            errors(
                "  upstreams: [{name: api, url: 'http://a/mcp'}, {name: b, url: 'http://b/mcp'}]\n"
                    + "  tools: [{name: t, upstream: api, effect: read_only},"
                    + " {name: t, upstream: b, effect: read_only}]\n"))
        .as("the same tool name on two upstreams is two tools")
        .isEmpty();
  }

  @Test
  void attemptsAndRatiosStayInTheirRanges() {
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: read_only, retry: {maxAttempts: 11}}]\n"))
        .containsExactly(".spec.tools[0].retry.maxAttempts: should be less than or equal to 10.0");
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: read_only, retry: {maxAttempts: 0}}]\n"))
        .containsExactly(
            ".spec.tools[0].retry.maxAttempts: should be greater than or equal to 1.0");
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: read_only, breaker: {failureRatio: 1.5}}]\n"))
        .containsExactly(
            ".spec.tools[0].breaker.failureRatio: should be less than or equal to 1.0");
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: read_only, breaker: {slowCallRatio: 0.0}}]\n"))
        .containsExactly(".spec.tools[0].breaker.slowCallRatio: should be greater than 0.0");
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: read_only, breaker: {failureRatio: 0.5}}]\n"))
        .isEmpty();
  }

  @Test
  void writesAreNotRetriedWithoutAWayToFindTheirOperation() {
    String attempts = ".spec.tools[0].retry.maxAttempts: ";
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: non_idempotent_write, retry: {maxAttempts: 2}}]\n"))
        .containsExactly(attempts + ToolPolicyRules.NON_IDEMPOTENT_NEVER_RETRIED.message());
    assertThat(errors("  tools: [{name: t, upstream: api, retry: {maxAttempts: 2}}]\n"))
        .as("a tool without an effect is a non-idempotent write")
        .containsExactly(attempts + ToolPolicyRules.NON_IDEMPOTENT_NEVER_RETRIED.message());
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: read_only, retry: {maxAttempts: 3}}]\n"))
        .isEmpty();
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: idempotent_write, retry: {maxAttempts: 2}}]\n"))
        .containsExactly(
            ".spec.tools[0].idempotency: " + ToolPolicyRules.RETRIED_WRITE_NEEDS_LOOKUP.message());
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: idempotent_write, retry: {maxAttempts: 2},"
                    + " idempotency: {lookup: {tool: l, argument: k}}}]\n"))
        .isEmpty();
  }

  @Test
  void sharingAndFallbacksAreForReadsAlone() {
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: read_only, shareConcurrentCalls: true}]\n"))
        .containsExactly(
            ".spec.tools[0].shareConcurrentCalls: "
                + ToolPolicyRules.ONLY_EXPENSIVE_READS_SHARE.message());
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: expensive_read, shareConcurrentCalls: true}]\n"))
        .isEmpty();
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: idempotent_write,"
                    + " breaker: {fallback: read_only_degraded_response}}]\n"))
        .containsExactly(
            ".spec.tools[0].breaker.fallback: " + ToolPolicyRules.WRITES_GET_NO_FALLBACK.message());
  }

  @Test
  void backoffAndProbesAreOrderedWithTheDefaultsFillingTheGaps() {
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: read_only,"
                    + " retry: {maxAttempts: 2, backoff: {initialMs: 2000}}}]\n"))
        .containsExactly(
            ".spec.tools[0].retry.backoff.maxMs: "
                + ToolPolicyRules.BACKOFF_CAP_ABOVE_FIRST.message());
    assertThat(
            errors(
                "  tools: [{name: t, upstream: api, effect: read_only,"
                    + " breaker: {halfOpen: {concurrentProbes: 4}}}]\n"))
        .containsExactly(
            ".spec.tools[0].breaker.halfOpen.concurrentProbes: "
                + ToolPolicyRules.TOOL_PROBES.message());
    assertThat(errors("  defaults: {breaker: {halfOpen: {probeCalls: 2, concurrentProbes: 3}}}\n"))
        .containsExactly(
            ".spec.defaults.breaker.halfOpen.concurrentProbes: "
                + ToolPolicyRules.DEFAULT_PROBES.message());
  }

  @Test
  void anUpstreamCredentialIsOneWholeKindOverTheRightScheme() {
    String at = "  upstreams: [{name: api, url: 'http://api/mcp', auth: ";
    assertThat(errors(at + "{}}]\n"))
        .containsExactly(
            ".spec.upstreams[0].auth.bearerTokenFile: "
                + ToolPolicyRules.CREDENTIAL_GIVEN.message());
    assertThat(errors(at + "{bearerTokenFile: t, headerName: X-Key, headerValueFile: k}}]\n"))
        .containsExactly(
            ".spec.upstreams[0].auth.headerName: " + ToolPolicyRules.ONE_HEADER.message());
    assertThat(errors(at + "{headerName: X-Key}}]\n"))
        .containsExactly(
            ".spec.upstreams[0].auth.headerValueFile: "
                + ToolPolicyRules.HEADER_WITH_VALUE.message());
    assertThat(errors(at + "{clientCertificateFile: c}}]\n"))
        .contains(
            ".spec.upstreams[0].auth.clientKeyFile: "
                + ToolPolicyRules.CERTIFICATE_WITH_KEY.message(),
            ".spec.upstreams[0].url: " + ToolPolicyRules.TLS_FOR_CERTIFICATES.message());
    assertThat(
            errors(
                "  upstreams: [{name: api, url: 'https://api/mcp',"
                    + " auth: {clientCertificateFile: c, clientKeyFile: k}}]\n"))
        .isEmpty();
    assertThat(errors("  quotas: {notify: {webhookUrl: 'https://hooks/x'}}\n"))
        .containsExactly(
            ".spec.quotas.notify.secretFile: " + ToolPolicyRules.NOTIFICATIONS_SIGNED.message());
  }

  @Test
  void hostileSizesAreRefusedByTheSchemaBeforeAnyRuleRuns() {
    String longName = "t".repeat(129);
    assertThat(errors("  tools: [{name: " + longName + ", upstream: api, effect: read_only}]\n"))
        .containsExactly(".spec.tools[0].name: may not be longer than 128");
    String manyTools =
        IntStream.range(0, 257)
            .mapToObj(i -> "{name: t" + i + ", upstream: api, effect: read_only}")
            .collect(Collectors.joining(", ", "  tools: [", "]\n"));
    assertThat(errors(manyTools)).containsExactly(".spec.tools: must have at most 256 items");
    assertThat(errors("  upstreams: [{name: api, url: 'http://x/" + "a".repeat(3000) + "'}]\n"))
        .containsExactly(".spec.upstreams[0].url: may not be longer than 2048");
    assertThat(errors("  quotas: {perSession: {read: 2000000000}}\n"))
        .containsExactly(".spec.quotas.perSession.read: should be less than or equal to 1.0E9");
  }

  @Test
  void whatTheCrdRefusesTheOperatorRefusesToo() {
    budgetLayersMustNestWithTheDefaultsFillingTheGaps();
    upstreamsAreRequiredNamedLikePathSegmentsAndReachedOverHttp();
    everyToolNamesOneOfTheUpstreamsOnceOnly();
    attemptsAndRatiosStayInTheirRanges();
    writesAreNotRetriedWithoutAWayToFindTheirOperation();
    sharingAndFallbacksAreForReadsAlone();
    backoffAndProbesAreOrderedWithTheDefaultsFillingTheGaps();
    anUpstreamCredentialIsOneWholeKindOverTheRightScheme();
    hostileSizesAreRefusedByTheSchemaBeforeAnyRuleRuns();
    KubernetesSerialization yaml = new KubernetesSerialization();

    assertThat(REFUSED).hasSizeGreaterThan(25);
    for (String refused : REFUSED) {
      ToolPolicy policy = yaml.unmarshal(refused, ToolPolicy.class);
      assertThat(PolicyValidator.validate(policy.getSpec())).as(refused).isNotEmpty();
    }
  }
}
