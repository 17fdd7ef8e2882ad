package dev.toolgate.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.crdv2.generator.CRDGenerator;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CRD in {@code crds/} is generated from {@link ToolPolicy} (whose spec is the policy model)
 * and refined by {@link ToolPolicyCrd}; this test fails when it is stale. Regenerate with {@code
 * ./mvnw -pl operator test -Dtest=CrdIsCurrentTest -Dtoolgate.regenerate=true}.
 */
class CrdIsCurrentTest {

  static final Path COMMITTED = Path.of("../crds", ToolPolicyCrd.FILE_NAME);

  @TempDir Path dir;

  /** The CRD the classes generate, refined. */
  static String generated(Path dir) throws Exception {
    new CRDGenerator()
        .inOutputDir(dir.toFile())
        .forCRDVersions("v1")
        .customResourceClasses(ToolPolicy.class)
        .detailedGenerate();
    CustomResourceDefinition crd =
        new KubernetesSerialization()
            .unmarshal(
                Files.readString(dir.resolve("toolpolicies.toolgate.dev-v1.yml")),
                CustomResourceDefinition.class);
    return ToolPolicyCrd.yaml(ToolPolicyCrd.refine(crd));
  }

  @Test
  void theCommittedCrdIsTheOneTheClassesGenerate() throws Exception {
    String generated = generated(dir);
    if (Boolean.getBoolean("toolgate.regenerate")) {
      Files.writeString(dir.resolve("crd.yaml"), generated);
      Files.copy(dir.resolve("crd.yaml"), COMMITTED, StandardCopyOption.REPLACE_EXISTING);
    }

    assertThat(Files.readString(COMMITTED))
        .as("crds/ is stale: regenerate with -Dtoolgate.regenerate=true")
        .isEqualTo(generated);
  }
}
