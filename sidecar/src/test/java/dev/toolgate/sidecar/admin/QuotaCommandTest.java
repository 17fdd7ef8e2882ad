package dev.toolgate.sidecar.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.sidecar.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Clock;
import org.junit.jupiter.api.Test;

class QuotaCommandTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(args, new PrintStream(out), new PrintStream(err), Clock.systemUTC());
  }

  @Test
  void refusesAMissingTokenFileNamingIt() {
    assertThat(run("quota", "raise", "--session", "s")).isEqualTo(2);
    assertThat(err.toString()).contains("Missing required option: '--token-file=FILE'");
  }

  @Test
  void refusesANumberThatIsNotOneNamingTheFlag() {
    assertThat(run("quota", "raise", "--session", "s", "--writes", "ten", "--token-file", "t"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("Invalid value for option '--writes': 'ten' is not an int");
  }

  @Test
  void refusesAnAmountOutsideItsRangeOrNoAmountBeforeCallingAnything() {
    assertThat(
            run("quota", "raise", "--session", "s", "--writes", "2147483647", "--token-file", "t"))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains("--reads and --writes add 1 to 1000000 each, was 2147483647");
    assertThat(run("quota", "raise", "--session", "s", "--reads", "0", "--token-file", "t"))
        .isEqualTo(2);
    assertThat(run("quota", "raise", "--session", "s", "--token-file", "t")).isEqualTo(2);
    assertThat(err.toString()).contains("give --reads N, --writes N or both");
  }

  @Test
  void refusesAnUnknownActionSuggestingTheKnownOnes() {
    assertThat(run("quota", "grant")).isEqualTo(2);
    assertThat(err.toString())
        .contains("Unmatched argument")
        .contains("'grant'")
        .contains("Did you mean: quota raise");
  }

  @Test
  void asksWhichActionWhenNoneIsGiven() {
    assertThat(run("quota")).isEqualTo(2);
    assertThat(err.toString()).contains("say which: quota raise or quota reset");
  }

  @Test
  void reportsAnUnreadableTokenFile() {
    assertThat(run("quota", "reset", "--session", "s", "--token-file", "/nonexistent/token"))
        .isEqualTo(1);
    assertThat(err.toString()).contains("error:");
  }

  @Test
  void printsItsHelpGeneratedFromItsOptions() {
    assertThat(run("quota", "raise", "--help")).isZero();
    assertThat(out.toString())
        .contains("--session=ID")
        .contains("--token-file=FILE")
        .contains("default http://127.0.0.1:17020");
  }
}
