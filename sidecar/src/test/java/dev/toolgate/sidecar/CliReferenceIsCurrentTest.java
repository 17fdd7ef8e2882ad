package dev.toolgate.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The sidecar's command-line reference in docs/ is the usage picocli prints today. Regenerate it
 * with {@code ./mvnw -pl sidecar test -Dtest=CliReferenceIsCurrentTest -Dtoolgate.regenerate=true}.
 */
class CliReferenceIsCurrentTest {

  static final Path REFERENCE = Path.of("..", "docs", "reference", "cli", "toolgate-sidecar.md");

  @Test
  void theReferenceInDocsIsTheUsageOfEveryCommand() throws Exception {
    CommandLine line =
        SidecarCommand.commandLine(
            Clock.systemUTC(),
            java.util.Map.of(),
            new PrintWriter(new StringWriter()),
            new PrintWriter(new StringWriter()));
    StringBuilder page =
        new StringBuilder("# `java -jar toolgate-sidecar.jar`\n\n")
            .append("Generated from the commands' declarations by `CliReferenceIsCurrentTest`.\n");
    usage(line, page);
    if (Boolean.getBoolean("toolgate.regenerate")) {
      Files.writeString(REFERENCE, page.toString());
    }

    assertThat(Files.readString(REFERENCE))
        .as("%s is stale: regenerate it", REFERENCE)
        .isEqualTo(page.toString());
    assertThat(page)
        .contains(
            "--config=FILE", "approve", "--key-file=FILE", "quota raise", "--token-file=FILE");
  }

  private static void usage(CommandLine line, StringBuilder page) {
    page.append("\n## `")
        .append(line.getCommandSpec().qualifiedName())
        .append("`\n\n```\n")
        .append(line.getUsageMessage(CommandLine.Help.Ansi.OFF))
        .append("```\n");
    line.getSubcommands().values().forEach(sub -> usage(sub, page));
  }
}
