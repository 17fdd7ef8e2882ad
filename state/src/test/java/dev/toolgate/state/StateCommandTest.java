package dev.toolgate.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

class StateCommandTest {

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
  }

  @Test
  void aMemberWithoutAWayToCheckTokensDoesNotStart() {
    assertThat(run("--tls-cert", "c.pem", "--tls-key", "k.pem")).isEqualTo(2);
    assertThat(err.toString()).contains("--tokens=FILE").contains("--token-review");
  }

  @Test
  void tokenReviewWithoutAPublisherIsRefusedSinceNobodyCouldPublish() {
    assertThat(run("--tls-cert", "c.pem", "--tls-key", "k.pem", "--token-review")).isEqualTo(2);
    assertThat(err.toString()).contains("--token-review needs --publisher");
  }

  @Test
  void anUnreadableTokenFileIsAnErrorNamingIt() {
    assertThat(run("--tls-cert", "c.pem", "--tls-key", "k.pem", "--tokens", "/nonexistent/t.json"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("/nonexistent/t.json");
  }
}
