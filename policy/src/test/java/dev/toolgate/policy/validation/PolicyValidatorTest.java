package dev.toolgate.policy.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolgate.policy.model.Approval;
import dev.toolgate.policy.model.Backoff;
import dev.toolgate.policy.model.BreakerPolicy;
import dev.toolgate.policy.model.Budget;
import dev.toolgate.policy.model.Effect;
import dev.toolgate.policy.model.Fallback;
import dev.toolgate.policy.model.HalfOpen;
import dev.toolgate.policy.model.IdempotencyPolicy;
import dev.toolgate.policy.model.Lookup;
import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.model.RetryPolicy;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.model.Upstream;
import dev.toolgate.policy.model.UpstreamAuth;
import dev.toolgate.policy.outcome.ResultClass;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyValidatorTest {

  private static final Upstream API = new Upstream("deployment-api", "http://127.0.0.1:8080/mcp");

  private static final ToolRule GET_JOB =
      new ToolRule(
          "get_deployment_job",
          "deployment-api",
          Effect.READ_ONLY,
          new RetryPolicy(
              3,
              List.of(
                  ResultClass.TRANSPORT_UNAVAILABLE,
                  ResultClass.BACKEND_429,
                  ResultClass.BACKEND_503),
              new Backoff(250L, 1500L)),
          new BreakerPolicy(
              60,
              20,
              0.5,
              0.7,
              5000L,
              30,
              new HalfOpen(3, 1),
              Fallback.READ_ONLY_DEGRADED_RESPONSE),
          Approval.NONE,
          null);

  private static final ToolRule RESTART_JOB =
      new ToolRule(
          "restart_deployment_job",
          "deployment-api",
          Effect.IDEMPOTENT_WRITE,
          null,
          null,
          Approval.HUMAN_REQUIRED,
          new IdempotencyPolicy(
              List.of("intent_id", "/job_id", "/environment", "approval_id"),
              new Lookup("get_operation_by_key", "idempotency_key")));

  private static Policy seedPolicy(Budget budget, ToolRule... tools) {
    return new Policy(null, null, budget, List.of(API), null, List.of(tools), null, null);
  }

  @Test
  void acceptsTheSeedRunbookPolicy() {
    Policy policy = seedPolicy(Budget.DEFAULT, GET_JOB, RESTART_JOB);

    assertThat(PolicyValidator.validate(policy)).isEmpty();
  }

  @Test
  void rejectsABackendTimeoutThatOutlivesTheTransportAndNamesBothLayers() {
    Policy policy = seedPolicy(new Budget(null, null, null, 5000L, 7000L), GET_JOB);

    assertThat(PolicyValidator.validate(policy))
        .extracting(Violation::toString)
        .containsExactly(
            "budget.backendMs: an inner timeout must expire before the outer one:"
                + " budget.backendMs (7000) must be < budget.transportMs (5000)");
  }

  @Test
  void rejectsATransportBudgetThatEatsTheAgentsReserve() {
    Policy policy = seedPolicy(new Budget(null, 15000L, 3000L, 13000L, null), GET_JOB);

    assertThat(PolicyValidator.validate(policy))
        .extracting(Violation::field)
        .containsExactly("budget.transportMs");
  }

  @Test
  void rejectsAnAutomaticRetryOfANonIdempotentWrite() {
    ToolRule rule =
        new ToolRule(
            "delete_tag",
            "deployment-api",
            Effect.NON_IDEMPOTENT_WRITE,
            new RetryPolicy(2, List.of(ResultClass.BACKEND_503), null),
            null,
            null,
            null);

    assertThat(PolicyValidator.validate(seedPolicy(Budget.DEFAULT, rule)))
        .extracting(Violation::toString)
        .containsExactly(
            "tools[0].retry.maxAttempts: a non_idempotent_write is never retried automatically:"
                + " maxAttempts must be 1, was 2");
  }

  @Test
  void rejectsARetriedWriteWithoutAnIdempotencyLookup() {
    ToolRule rule =
        new ToolRule(
            "restart_deployment_job",
            "deployment-api",
            Effect.IDEMPOTENT_WRITE,
            new RetryPolicy(2, List.of(ResultClass.BACKEND_503), null),
            null,
            null,
            new IdempotencyPolicy(List.of("intent_id"), null));

    assertThat(PolicyValidator.validate(seedPolicy(Budget.DEFAULT, rule)))
        .singleElement()
        .satisfies(v -> assertThat(v.message()).contains("needs idempotency.lookup"));
  }

  @Test
  void rejectsRetryingANonTransientResultClass() {
    ToolRule rule =
        new ToolRule(
            "get_deployment_job",
            "deployment-api",
            Effect.READ_ONLY,
            new RetryPolicy(3, List.of(ResultClass.INVALID_ARGUMENTS), null),
            null,
            null,
            null);

    assertThat(PolicyValidator.validate(seedPolicy(Budget.DEFAULT, rule)))
        .extracting(Violation::toString)
        .containsExactly(
            "tools[0].retry.retryOn[0]: only transient failures may be retried, not"
                + " 'invalid_arguments'");
  }

  @Test
  void rejectsRatiosOutsideZeroToOneAndADegradedFallbackForAWrite() {
    ToolRule rule =
        new ToolRule(
            "restart_deployment_job",
            "deployment-api",
            Effect.IDEMPOTENT_WRITE,
            null,
            new BreakerPolicy(
                null, null, 1.5, 0.0, null, null, null, Fallback.READ_ONLY_DEGRADED_RESPONSE),
            null,
            null);

    assertThat(PolicyValidator.validate(seedPolicy(Budget.DEFAULT, rule)))
        .extracting(Violation::field)
        .containsExactly(
            "tools[0].breaker.failureRatio",
            "tools[0].breaker.slowCallRatio",
            "tools[0].breaker.fallback");
  }

  @Test
  void rejectsAToolOnAnUnknownUpstreamAndABadUpstreamUrl() {
    Policy policy =
        new Policy(
            null,
            null,
            null,
            List.of(new Upstream("api", "ftp://somewhere")),
            null,
            List.of(GET_JOB),
            null,
            null);

    assertThat(PolicyValidator.validate(policy))
        .extracting(Violation::toString)
        .containsExactly(
            "upstreams[0].url: must be an absolute http(s) URL with a host, was 'ftp://somewhere'",
            "tools[0].upstream: must name one of the upstreams [api], was 'deployment-api'");
  }

  private static List<String> authViolations(String url, UpstreamAuth auth) {
    Policy policy =
        new Policy(
            null,
            null,
            null,
            List.of(new Upstream("deployment-api", url, auth)),
            null,
            List.of(GET_JOB),
            null,
            null);
    return PolicyValidator.validate(policy).stream().map(Violation::toString).toList();
  }

  @Test
  void acceptsAClientCertificateOrAPrivateAuthorityOverHttpsAloneOrWithABearerToken() {
    assertThat(
            authViolations(
                "https://api.internal/mcp",
                UpstreamAuth.clientCertificate("client.pem", "client.key", "ca.pem")))
        .isEmpty();
    assertThat(
            authViolations(
                "https://api.internal/mcp",
                new UpstreamAuth("token", null, null, "client.pem", "client.key", null)))
        .isEmpty();
    assertThat(
            authViolations(
                "https://api.internal/mcp",
                new UpstreamAuth("t", null, null, null, null, "ca.pem")))
        .isEmpty();
  }

  @Test
  void rejectsAClientCertificateOverPlainHttpOrWithoutItsKeyAndAnEmptyAuth() {
    assertThat(
            authViolations(
                "http://api.internal/mcp", UpstreamAuth.clientCertificate("c.pem", "c.key", null)))
        .containsExactly(
            "upstreams[0].auth.clientCertificateFile: a client certificate is presented over TLS"
                + " only; the upstream's url must be https, was 'http://api.internal/mcp'");
    assertThat(
            authViolations(
                "https://api.internal/mcp", UpstreamAuth.clientCertificate("c.pem", null, null)))
        .containsExactly(
            "upstreams[0].auth.clientKeyFile: is required with clientCertificateFile; name a PEM"
                + " file");
    assertThat(
            authViolations(
                "https://api.internal/mcp", new UpstreamAuth(null, null, null, null, null, null)))
        .containsExactly(
            "upstreams[0].auth: give bearerTokenFile, headerName with headerValueFile, or"
                + " clientCertificateFile with clientKeyFile");
    assertThat(authViolations("https://api.internal/mcp", UpstreamAuth.bearer("t"))).isEmpty();
    assertThat(
            authViolations(
                "http://api.internal/mcp", new UpstreamAuth("t", null, null, null, null, "ca.pem")))
        .containsExactly(
            "upstreams[0].auth.trustedCaFile: trusted authorities are read over TLS only; the"
                + " upstream's url must be https, was 'http://api.internal/mcp'");
  }

  @Test
  void acceptsPlainRelayPathsAndRefusesOnesThatCouldResolveElsewhere() {
    Policy policy =
        new Policy(
            null,
            null,
            null,
            List.of(
                new Upstream(
                    "deployment-api",
                    "http://127.0.0.1:8080/mcp",
                    null,
                    List.of("/ledger", "/a/../b", "/x?y", "//z", "/%2e"))),
            null,
            List.of(GET_JOB),
            null,
            null);

    assertThat(PolicyValidator.validate(policy))
        .extracting(Violation::field)
        .containsExactly(
            "upstreams[0].relayPaths[1]",
            "upstreams[0].relayPaths[2]",
            "upstreams[0].relayPaths[3]",
            "upstreams[0].relayPaths[4]");
  }

  @Test
  void rejectsAnUnknownIdempotencyKeyComponent() {
    ToolRule rule =
        new ToolRule(
            "restart_deployment_job",
            "deployment-api",
            Effect.IDEMPOTENT_WRITE,
            null,
            null,
            null,
            new IdempotencyPolicy(List.of("job_id"), null));

    assertThat(PolicyValidator.validate(seedPolicy(Budget.DEFAULT, rule)))
        .singleElement()
        .satisfies(v -> assertThat(v.field()).isEqualTo("tools[0].idempotency.keyComponents[0]"))
        .satisfies(v -> assertThat(v.message()).endsWith("was 'job_id'"));
  }

  @Test
  void requireValidThrowsWithEveryViolationInTheMessage() {
    Policy policy = new Policy(null, null, null, List.of(), null, List.of(), null, null);

    assertThatThrownBy(() -> PolicyValidator.requireValid(policy))
        .isInstanceOf(InvalidPolicyException.class)
        .hasMessage("invalid policy: upstreams: at least one upstream is required");
  }

  @Test
  void givesAnUnlistedToolTheSafestRule() {
    Policy policy = seedPolicy(Budget.DEFAULT, GET_JOB);

    ToolRule rule = policy.rule("deployment-api", "drop_database");

    assertThat(rule.effect()).isEqualTo(Effect.NON_IDEMPOTENT_WRITE);
    assertThat(rule.retry().maxAttempts()).isEqualTo(1);
    assertThat(policy.names("deployment-api", "drop_database")).isFalse();
  }
}
