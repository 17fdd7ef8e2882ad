package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's command-line reference in docs/ is the usage picocli prints today. Regenerate it
 * with {@code ./mvnw -pl bench test -Dtest=CliReferenceIsCurrentTest -Dtoolgate.regenerate=true}.
 */
class CliReferenceIsCurrentTest {

  static final Path REFERENCE = Path.of("..", "docs", "reference", "cli", "bench-run.md");

  @Test
  void theReferenceInDocsIsTheUsage() throws Exception {
    String page =
        "# `bench/run`\n\n"
            + "Generated from the options' declarations by `CliReferenceIsCurrentTest`.\n\n```\n"
            + LoadBenchOptions.usage()
            + "```\n";
    if (Boolean.getBoolean("toolgate.regenerate")) {
      Files.writeString(REFERENCE, page);
    }

    assertThat(Files.readString(REFERENCE))
        .as("%s is stale: regenerate it", REFERENCE)
        .isEqualTo(page);
    assertThat(page).contains("--rates=LIST", "--compare=DIR");
  }
}
