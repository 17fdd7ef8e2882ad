package dev.toolgate.policy.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.json.CanonicalJson;
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

    assertThat(IntentFingerprint.of("s1", "restart", first)).isEqualTo(IntentFingerprint.of("s1", "restart", second));
    assertThat(IntentFingerprint.of("s2", "restart", first)).isNotEqualTo(IntentFingerprint.of("s1", "restart", first));
  }

  @Test
  void theFingerprintOfACanonicalTextIsTheFingerprintOfItsArguments() {
    Map<String, Object> args = Map.of("job_id", "j1", "note", "x".repeat(1000));

    assertThat(IntentFingerprint.ofCanonical("s1", "get", CanonicalJson.of(args)))
        .isEqualTo(IntentFingerprint.of("s1", "get", args));
    assertThat(IntentFingerprint.ofCanonical(null, "get", CanonicalJson.of(args)))
        .isEqualTo(IntentFingerprint.of(null, "get", args));
  }
}
