package dev.toolgate.policy.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.IdempotencyPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IdempotencyKeysTest {

  private static final IdempotencyPolicy SEED =
      new IdempotencyPolicy(List.of("intent_id", "/job_id", "/environment", "approval_id"), null);

  private static KeyInputs inputs(Map<String, Object> args, String intent, String approval) {
    return new KeyInputs("restart_deployment_job", args, intent, approval, "session-1");
  }

  @Test
  void derivesTheSameKeyForTheSameIntentTargetAndApprovalWhateverTheArgumentOrder() {
    var a =
        IdempotencyKeys.derive(
            SEED, inputs(Map.of("job_id", "j1", "environment", "prod"), "i-1", "ap-1"));
    var b =
        IdempotencyKeys.derive(
            SEED,
            inputs(Map.of("environment", "prod", "job_id", "j1", "note", "x"), "i-1", "ap-1"));

    assertThat(a.key()).startsWith("tgk_").isEqualTo(b.key());
  }

  @Test
  void derivesADifferentKeyForAnotherTargetOrIntent() {
    var base =
        IdempotencyKeys.derive(
            SEED, inputs(Map.of("job_id", "j1", "environment", "prod"), "i-1", "ap"));
    var otherJob =
        IdempotencyKeys.derive(
            SEED, inputs(Map.of("job_id", "j2", "environment", "prod"), "i-1", "ap"));
    var otherIntent =
        IdempotencyKeys.derive(
            SEED, inputs(Map.of("job_id", "j1", "environment", "prod"), "i-2", "ap"));

    assertThat(base.key()).isNotEqualTo(otherJob.key()).isNotEqualTo(otherIntent.key());
  }

  @Test
  void holdsNoArgumentValue() {
    var key =
        IdempotencyKeys.derive(
            SEED, inputs(Map.of("job_id", "secret-job", "environment", "prod"), "i", "a"));

    assertThat(key.key()).doesNotContain("secret").doesNotContain("prod").hasSize(4 + 43);
  }

  @Test
  void namesTheComponentsItCannotFind() {
    var key = IdempotencyKeys.derive(SEED, inputs(Map.of("job_id", "j1"), "i-1", null));

    assertThat(key.derived()).isFalse();
    assertThat(key.missing()).containsExactly("/environment", "approval_id");
  }

  @Test
  void fingerprintsTheSameRequestAlikeAndAnotherSessionApart() {
    String a = IntentFingerprint.of("s1", "t", Map.of("a", 1, "b", List.of(1, 2)));
    String b = IntentFingerprint.of("s1", "t", Map.of("b", List.of(1, 2), "a", 1.0));
    String c = IntentFingerprint.of("s2", "t", Map.of("a", 1, "b", List.of(1, 2)));

    assertThat(a).isEqualTo(b).isNotEqualTo(c);
  }
}
