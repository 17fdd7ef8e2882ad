package dev.toolgate.policy.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class HashesTest {

  private static String reference(String text) throws Exception {
    byte[] digest =
        MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
  }

  @Property
  void hashesTheUtf8BytesOfAnyText(@ForAll @StringLength(max = 9000) String text) throws Exception {
    assertThat(Hashes.sha256(text)).isEqualTo(reference(text));
  }

  @Test
  void encodesEveryWidthAndUnpairedSurrogatesAsGetBytesDoes() throws Exception {
    String text = "a\u00e9\u20ac\ud83d\ude00|\ud83d|\ude00|" + "\u00e9".repeat(5000) + "\ud83d";
    assertThat(Hashes.sha256(text)).isEqualTo(reference(text));
  }

  @Test
  void hashesPartsAsTheirConcatenation() throws Exception {
    String canonical = "{\"job_id\":\"j1\",\"note\":\"" + "x".repeat(5000) + "\"}";
    assertThat(Hashes.sha256("session-1", "\n", "restart", "\n", new StringBuilder(canonical)))
        .isEqualTo(reference("session-1\nrestart\n" + canonical));
  }

  @Test
  void givesTheSameHashAsBeforeForAKnownText() {
    // Keys derived from this hash are stored by backends: the value must never change.
    assertThat(Hashes.sha256("abc")).isEqualTo("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
  }
}
