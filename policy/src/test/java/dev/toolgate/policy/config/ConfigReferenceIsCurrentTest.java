package dev.toolgate.policy.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference in docs/ is what the model says today. Regenerate it with {@code
 * ./mvnw -pl policy test -Dtest=ConfigReferenceIsCurrentTest -Dtoolgate.regenerate=true}.
 */
class ConfigReferenceIsCurrentTest {

  static final Path REFERENCE = Path.of("..", "docs", "reference", "configuration.md");

  @Test
  void theReferenceInDocsIsTheOneTheModelGenerates() throws Exception {
    String generated = ConfigReference.markdown();
    if (Boolean.getBoolean("toolgate.regenerate")) {
      Files.writeString(REFERENCE, generated);
    }

    assertThat(Files.readString(REFERENCE))
        .as("docs/reference/configuration.md is stale: regenerate it")
        .isEqualTo(generated);
  }

  @Test
  void everyFieldHasATypeADefaultColumnAndADescription() {
    String generated = ConfigReference.markdown();

    assertThat(generated)
        .contains("| `listen.host` | string | `127.0.0.1` |")
        .contains(
            "| `sharedState.mode` | `local` \\| `embedded` \\| `client` \\| `api` | `embedded` |")
        .contains("| `budget.backendMs` | integer | `7000` |")
        .contains(
            "| `tools[].effect` | `read_only` \\| `expensive_read` \\| `idempotent_write` \\| `non_idempotent_write` | `non_idempotent_write` |")
        .contains("| `quotas.notify.webhookUrl` | string | — |")
        .doesNotContain("| `policy`");
  }
}
