package dev.toolgate.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The operator's command-line reference in docs/ is the usage picocli prints today. Regenerate it
 * with {@code ./mvnw -pl operator test -Dtest=CliReferenceIsCurrentTest
 * -Dtoolgate.regenerate=true}.
 */
class CliReferenceIsCurrentTest {

  static final Path REFERENCE = Path.of("..", "docs", "reference", "cli", "toolgate-operator.md");

  @Test
  void theReferenceInDocsIsTheUsageOfEveryCommand() throws Exception {
    StringBuilder page =
        new StringBuilder("# `java -jar toolgate-operator.jar`\n\n")
            .append("Generated from the commands' declarations by `CliReferenceIsCurrentTest`.\n");
    usage(new CommandLine(new Main()), page);
    if (Boolean.getBoolean("toolgate.regenerate")) {
      Files.writeString(REFERENCE, page.toString());
    }

    assertThat(Files.readString(REFERENCE))
        .as("%s is stale: regenerate it", REFERENCE)
        .isEqualTo(page.toString());
    assertThat(page).contains("render", "--upstream=NAME=URL", "TOOLGATE_SIDECAR_IMAGE");
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
