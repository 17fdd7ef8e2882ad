package dev.toolgate.policy.admission;

import static dev.toolgate.policy.admission.AdmissionStep.BREAKER;
import static dev.toolgate.policy.admission.AdmissionStep.IDEMPOTENCY;
import static dev.toolgate.policy.admission.AdmissionStep.POLICY;
import static dev.toolgate.policy.admission.AdmissionStep.QUOTA;
import static dev.toolgate.policy.admission.AdmissionStep.SHARED_READ;
import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.Effect;
import dev.toolgate.policy.model.IdempotencyPolicy;
import dev.toolgate.policy.model.ToolRule;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionStepTest {

  private static ToolRule rule(Effect effect, IdempotencyPolicy idempotency, Boolean shared) {
    return new ToolRule("t", "api", effect, null, null, null, idempotency, null, shared, null);
  }

  private static final IdempotencyPolicy KEY = new IdempotencyPolicy(List.of("intent_id"), null);

  @Test
  void aReadPassesPolicyThenBreakerThenQuota() {
    assertThat(AdmissionStep.order(rule(Effect.READ_ONLY, null, null)))
        .containsExactly(POLICY, BREAKER, QUOTA);
  }

  @Test
  void aWriteWithAKeyMeetsItsRecordAfterTheBreakerAndIsChargedLast() {
    assertThat(AdmissionStep.order(rule(Effect.IDEMPOTENT_WRITE, KEY, null)))
        .containsExactly(POLICY, BREAKER, IDEMPOTENCY, QUOTA);
    assertThat(AdmissionStep.order(rule(Effect.NON_IDEMPOTENT_WRITE, KEY, null)))
        .containsExactly(POLICY, BREAKER, IDEMPOTENCY, QUOTA);
  }

  @Test
  void aWriteWithoutAKeyHasNoRecordToMeet() {
    assertThat(AdmissionStep.order(rule(Effect.NON_IDEMPOTENT_WRITE, null, null)))
        .containsExactly(POLICY, BREAKER, QUOTA);
  }

  @Test
  void aSharedExpensiveReadPaysItsQuotaThenJoinsTheRunningCall() {
    assertThat(AdmissionStep.order(rule(Effect.EXPENSIVE_READ, null, true)))
        .containsExactly(POLICY, BREAKER, QUOTA, SHARED_READ);
  }

  @Test
  void aReadWithAKeyIsNotTreatedAsAWrite() {
    assertThat(AdmissionStep.order(rule(Effect.READ_ONLY, KEY, null))).doesNotContain(IDEMPOTENCY);
  }

  @Test
  void everyOrderStartsWithTheKillSwitchAndApprovalAndChargesNoCallTheBreakerOrARecordStops() {
    for (Effect effect : Effect.values()) {
      for (Boolean shared : new Boolean[] {true, false}) {
        List<AdmissionStep> order = AdmissionStep.order(rule(effect, KEY, shared));
        assertThat(order.get(0)).isEqualTo(POLICY);
        assertThat(order.indexOf(QUOTA)).isGreaterThan(order.indexOf(BREAKER));
        assertThat(order.indexOf(QUOTA)).isGreaterThan(order.indexOf(IDEMPOTENCY));
      }
    }
  }
}
