package dev.toolgate.sidecar.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

class QuotaCommandTest {

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return QuotaCommand.run(
        args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
  }

  @Test
  void explainsMissingAndBadArguments() {
    assertThat(run("quota", "raise", "--session", "s")).isEqualTo(2);
    assertThat(err.toString()).contains("--session and --token-file are required");

    assertThat(run("quota", "raise", "--session", "s", "--writes", "ten", "--token-file", "t"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--writes takes a whole number, was 'ten'");

    assertThat(run("quota", "grant")).isEqualTo(2);
    assertThat(err.toString()).contains("Usage:");
  }

  @Test
  void reportsAnUnreadableTokenFile() {
    assertThat(run("quota", "reset", "--session", "s", "--token-file", "/nonexistent/token"))
        .isEqualTo(1);
    assertThat(err.toString()).contains("error:");
  }
}
