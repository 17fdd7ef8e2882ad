package dev.toolgate.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.validation.PolicyValidator;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnlistedRuleTest {

  private static final Upstream API = new Upstream("api", "http://127.0.0.1:1/mcp");
  private static final ToolRule APPROVED_WRITE =
      new ToolRule(
          "restart", "api", Effect.NON_IDEMPOTENT_WRITE, null, null, Approval.HUMAN_REQUIRED, null);
  private static final ToolRule READ =
      new ToolRule("get", "api", Effect.READ_ONLY, null, null, Approval.NONE, null);

  private static Policy policy(UnlistedTools unlisted, UnlistedRule defaults, ToolRule... tools) {
    return new Policy(
        null, null, null, List.of(API), null, List.of(tools), null, null, unlisted, defaults);
  }

  @Test
  void anUnlistedToolIsANeverRetriedWriteWithTheApprovalOfTheNamedWritesAndASharedBreaker() {
    ToolRule rule = policy(null, null, APPROVED_WRITE, READ).rule("api", "get_v2");

    assertThat(rule.effect()).isEqualTo(Effect.NON_IDEMPOTENT_WRITE);
    assertThat(rule.retry().maxAttempts()).isEqualTo(1);
    assertThat(rule.approval()).isEqualTo(Approval.HUMAN_REQUIRED);
    assertThat(rule.breaker()).isEqualTo(BreakerPolicy.DEFAULT);
    assertThat(rule.breakerName())
        .as("every unlisted name counts in one breaker")
        .isEqualTo(policy(null, null).rule("api", "get_v3").breakerName());
  }

  @Test
  void withoutAnApprovedNamedWriteAnUnlistedToolNeedsNoApprovalUnlessTheDefaultsSaySo() {
    assertThat(policy(null, null, READ).rule("api", "x").approval()).isEqualTo(Approval.NONE);
    assertThat(
            policy(null, new UnlistedRule(Approval.HUMAN_REQUIRED, null), READ)
                .rule("api", "x")
                .approval())
        .isEqualTo(Approval.HUMAN_REQUIRED);
  }

  @Test
  void denyRefusesOnlyWhatThePolicyDoesNotNameAndAllowIsTheDefault() {
    Policy deny = policy(UnlistedTools.DENY, null, READ);

    assertThat(deny.refusesUnlisted("api", "x")).isTrue();
    assertThat(deny.refusesUnlisted("api", "get")).isFalse();
    assertThat(deny.refusesUnlisted("other", "get")).isTrue();
    assertThat(policy(null, null, READ).unlistedTools()).isEqualTo(UnlistedTools.ALLOW);
    assertThat(policy(null, null, READ).refusesUnlisted("api", "x")).isFalse();
  }

  @Test
  void theDefaultsBreakerCannotBeADegradedReadFallback() {
    BreakerPolicy degraded =
        new BreakerPolicy(
            null, null, null, null, null, null, null, Fallback.READ_ONLY_DEGRADED_RESPONSE);

    assertThat(PolicyValidator.validate(policy(null, new UnlistedRule(null, degraded), READ)))
        .extracting(v -> v.field())
        .containsExactly("defaults.breaker.fallback");
  }
}
