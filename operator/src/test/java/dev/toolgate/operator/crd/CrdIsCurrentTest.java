package dev.toolgate.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.crdv2.generator.CRDGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CRD in {@code crds/} is generated from {@link ToolPolicy} (whose spec is the policy model);
 * this test fails when it is stale. Regenerate with {@code ./mvnw -pl operator test
 * -Dtest=CrdIsCurrentTest -Dtoolgate.regenerate=true}.
 */
class CrdIsCurrentTest {

  static final Path COMMITTED = Path.of("../crds/toolpolicies.toolgate.dev-v1.yml");

  @TempDir Path dir;

  @Test
  void theCommittedCrdIsTheOneTheClassesGenerate() throws Exception {
    new CRDGenerator()
        .inOutputDir(dir.toFile())
        .forCRDVersions("v1")
        .customResourceClasses(ToolPolicy.class)
        .detailedGenerate();
    Path generated = dir.resolve("toolpolicies.toolgate.dev-v1.yml");
    if (Boolean.getBoolean("toolgate.regenerate")) {
      Files.copy(generated, COMMITTED, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    assertThat(Files.readString(COMMITTED))
        .as("crds/ is stale: regenerate with -Dtoolgate.regenerate=true")
        .isEqualTo(Files.readString(generated));
  }
}
