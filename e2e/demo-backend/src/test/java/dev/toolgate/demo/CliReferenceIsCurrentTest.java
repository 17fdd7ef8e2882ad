package dev.toolgate.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The demo backend's command-line reference in docs/ is the usage picocli prints today. Regenerate
 * it with {@code ./mvnw -pl e2e/demo-backend test -Dtest=CliReferenceIsCurrentTest
 * -Dtoolgate.regenerate=true}.
 */
class CliReferenceIsCurrentTest {

  static final Path REFERENCE =
      Path.of("..", "..", "docs", "reference", "cli", "toolgate-demo-backend.md");

  @Test
  void theReferenceInDocsIsTheUsage() throws Exception {
    String page =
        "# `java -jar toolgate-demo-backend.jar`\n\n"
            + "Generated from the command's declaration by `CliReferenceIsCurrentTest`.\n\n```\n"
            + new CommandLine(new DemoBackendMain()).getUsageMessage(CommandLine.Help.Ansi.OFF)
            + "```\n";
    if (Boolean.getBoolean("toolgate.regenerate")) {
      Files.writeString(REFERENCE, page);
    }

    assertThat(Files.readString(REFERENCE))
        .as("%s is stale: regenerate it", REFERENCE)
        .isEqualTo(page);
    assertThat(page).contains("--port=PORT", "default 18080");
  }
}
