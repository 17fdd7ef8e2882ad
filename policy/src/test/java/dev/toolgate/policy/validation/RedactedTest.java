package dev.toolgate.policy.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.model.Upstream;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedactedTest {

  @Test
  void aUrlLosesItsUserInfoAndItsQueryAndKeepsTheRest() {
    assertThat(Redacted.url("https://bob:s3cret@hooks.example/path?token=abc#x"))
        .isEqualTo("https://hooks.example/path?redacted#x");
    assertThat(Redacted.url("http://api.internal:8080/mcp"))
        .isEqualTo("http://api.internal:8080/mcp");
    assertThat(Redacted.url("http://exa mple/?key=1")).doesNotContain("key=1");
  }

  @Test
  void everyUrlQuotedInATextIsRedactedAndTheWordsAroundKept() {
    String message =
        "webhookUrl: must be https, was 'http://user:pw@h.example/q?key=K1' and"
            + " upstreams[0].url: ftp://x:y@z/a?b=c failed";

    String shown = Redacted.text(message);

    assertThat(shown)
        .doesNotContain("pw")
        .doesNotContain("K1")
        .doesNotContain("x:y")
        .doesNotContain("b=c")
        .contains("'http://h.example/q?redacted'")
        .contains("upstreams[0].url: ftp://z/a?redacted failed");
  }

  @Test
  void theValidatorsRefusalOfABadUrlDoesNotRepeatItsCredentials() {
    Policy policy =
        new Policy(
            null,
            null,
            null,
            List.of(new Upstream("api", "ftp://admin:hunter2@somewhere/mcp?apikey=K9")),
            null,
            List.of(),
            null,
            null);

    assertThat(PolicyValidator.validate(policy))
        .extracting(Violation::toString)
        .allSatisfy(v -> assertThat(v).doesNotContain("hunter2").doesNotContain("K9"));
  }
}
