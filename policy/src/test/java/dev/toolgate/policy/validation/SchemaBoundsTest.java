package dev.toolgate.policy.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.Effect;
import dev.toolgate.policy.model.IdempotencyPolicy;
import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.model.QuotaNotify;
import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.model.SessionQuota;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.model.Upstream;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A policy from a sidecar's file is held to the bounds the CRD's schema holds a ToolPolicy to, read
 * from the same annotations, and each refusal names its path and (shortened, redacted) value.
 */
class SchemaBoundsTest {

  private static final Upstream API = new Upstream("api", "http://127.0.0.1:8080/mcp");

  private static Policy policy(Quotas quotas, List<Upstream> upstreams, ToolRule... tools) {
    return new Policy(null, null, null, upstreams, quotas, List.of(tools), null, null);
  }

  @Test
  void aPolicyWithinEveryBoundHasNoViolation() {
    ToolRule read = new ToolRule("get", "api", Effect.READ_ONLY, null, null, null, null);

    assertThat(SchemaBounds.check(policy(null, List.of(API), read))).isEmpty();
  }

  @Test
  void aNumberPastItsMaximumIsRefusedNamingThePathTheRangeAndTheValue() {
    Quotas huge = new Quotas(new SessionQuota(2_000_000_000, null), null, null, null, null);

    assertThat(PolicyValidator.validate(policy(huge, List.of(API))))
        .extracting(Violation::toString)
        .containsExactly("quotas.perSession.read: must be in [0, 1000000000], was 2000000000");
  }

  @Test
  void listsAreBoundedAndSoIsEachOfTheirElements() {
    List<Upstream> seventeen =
        java.util.stream.IntStream.range(0, 17)
            .mapToObj(i -> new Upstream("u" + i, "http://127.0.0.1/mcp"))
            .toList();
    ToolRule longKey =
        new ToolRule(
            "put",
            "api",
            Effect.IDEMPOTENT_WRITE,
            null,
            null,
            null,
            new IdempotencyPolicy(List.of("/" + "k".repeat(300)), null));

    assertThat(PolicyValidator.validate(policy(null, seventeen)))
        .extracting(Violation::toString)
        .containsExactly("upstreams: must hold 1 to 16 items, was 17");
    assertThat(SchemaBounds.check(policy(null, List.of(API), longKey)))
        .extracting(Violation::field)
        .containsExactly("tools[0].idempotency.keyComponents[0]");
  }

  @Test
  void aHostileValueIsQuotedShortAndWithoutItsCredentials() {
    String url = "http://user:s3cret@hooks.example/" + "x".repeat(2_000_000);
    Quotas notify = new Quotas(null, null, null, null, new QuotaNotify(url, "/etc/secret", null));

    List<Violation> violations = SchemaBounds.check(policy(notify, List.of(API)));

    assertThat(violations).extracting(Violation::field).containsOnly("quotas.notify.webhookUrl");
    assertThat(violations)
        .allSatisfy(
            v -> {
              assertThat(v.message()).doesNotContain("s3cret");
              assertThat(v.message().length()).isLessThan(300);
            });
  }

  @Test
  void aRequiredFieldThatIsMissingIsNamed() {
    Upstream nameless = new Upstream(null, "http://127.0.0.1/mcp");

    assertThat(SchemaBounds.check(policy(null, List.of(nameless))))
        .extracting(Violation::toString)
        .containsExactly("upstreams[0].name: is required");
    assertThat(SchemaBounds.check(policy(null, Collections.emptyList())))
        .extracting(Violation::toString)
        .containsExactly("upstreams: must hold 1 to 16 items, was 0");
  }
}
