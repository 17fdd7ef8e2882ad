package dev.toolgate.sidecar;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Where the sidecar's frameworks may appear. */
class SidecarLayersTest {

  private final JavaClasses sidecar =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.toolgate.sidecar");

  @Test
  void onlyTheSharedStateAdapterKnowsHazelcast() {
    assertThat(
            noClasses()
                .that()
                .resideOutsideOfPackage("dev.toolgate.sidecar.state.hazelcast..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("com.hazelcast..")
                .evaluate(sidecar)
                .getFailureReport()
                .getDetails())
        .as("violations")
        .isEmpty();
  }

  @Test
  void theSidecarKnowsNoKubernetesClient() {
    assertThat(
            noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.fabric8..")
                .evaluate(sidecar)
                .getFailureReport()
                .getDetails())
        .as("violations")
        .isEmpty();
  }
}
