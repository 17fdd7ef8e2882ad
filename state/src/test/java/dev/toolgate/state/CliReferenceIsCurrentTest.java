package dev.toolgate.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The state service's command-line reference in docs/ is the usage picocli prints today. Regenerate
 * it with {@code ./mvnw -pl state test -Dtest=CliReferenceIsCurrentTest
 * -Dtoolgate.regenerate=true}.
 */
class CliReferenceIsCurrentTest {

  static final Path REFERENCE = Path.of("..", "docs", "reference", "cli", "toolgate-state.md");

  @Test
  void theReferenceInDocsIsTheUsageOfTheCommand() throws Exception {
    CommandLine line =
        Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    String page =
        "# `java -jar toolgate-state.jar`\n\n"
            + "Generated from the command's declarations by `CliReferenceIsCurrentTest`.\n\n```\n"
            + line.getUsageMessage(CommandLine.Help.Ansi.OFF)
            + "```\n";
    if (Boolean.getBoolean("toolgate.regenerate")) {
      Files.writeString(REFERENCE, page);
    }

    assertThat(Files.readString(REFERENCE))
        .as("%s is stale: regenerate it", REFERENCE)
        .isEqualTo(page);
    assertThat(page).contains("--token-review", "--tokens=FILE", "--publisher=USER");
  }
}
