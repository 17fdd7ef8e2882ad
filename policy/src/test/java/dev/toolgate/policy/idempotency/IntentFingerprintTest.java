package dev.toolgate.policy.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IntentFingerprintTest {

  @Test
  void theSameArgumentsInAnotherKeyOrderMakeTheSameFingerprint() {
    Map<String, Object> first = new LinkedHashMap<>();
    first.put("job_id", "j1");
    first.put("environment", "prod");
    Map<String, Object> second = new LinkedHashMap<>();
    second.put("environment", "prod");
    second.put("job_id", "j1");

    assertThat(IntentFingerprint.of("s1", "restart", first))
        .isEqualTo(IntentFingerprint.of("s1", "restart", second));
    assertThat(IntentFingerprint.of("s2", "restart", first))
        .isNotEqualTo(IntentFingerprint.of("s1", "restart", first));
  }

  @Test
  void theFingerprintOfAnArgumentsHashIsTheFingerprintOfItsArguments() {
    Map<String, Object> args = Map.of("job_id", "j1", "note", "x".repeat(1000));

    assertThat(IntentFingerprint.ofArgumentsHash("s1", "get", IdempotencyKeys.argumentsHash(args)))
        .isEqualTo(IntentFingerprint.of("s1", "get", args));
    assertThat(IntentFingerprint.ofArgumentsHash(null, "get", IdempotencyKeys.argumentsHash(args)))
        .isEqualTo(IntentFingerprint.of(null, "get", args))
        .isEqualTo(IntentFingerprint.of("", "get", args));
  }

  @Test
  void argumentsThatDifferInOneCharacterMakeAnotherFingerprint() {
    String note = "x".repeat(1000);

    assertThat(IntentFingerprint.of("s1", "get", Map.of("job_id", "j1", "note", note)))
        .isNotEqualTo(IntentFingerprint.of("s1", "get", Map.of("job_id", "j1", "note", note + "y")))
        .isNotEqualTo(IntentFingerprint.of("s1", "get2", Map.of("job_id", "j1", "note", note)));
  }
}
