package dev.toolgate.operator;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Strimzi's split: the model (render) computes the desired state; only the reconciler talks to the
 * API server.
 */
class ModelIsPureTest {

  private final JavaClasses operator =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.toolgate.operator");

  @Test
  void theModelNeverTalksToTheApiServer() {
    assertThat(
            noClasses()
                .that()
                .resideInAPackage("..operator.render..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("io.fabric8.kubernetes.client.KubernetesClient")
                .orShould()
                .dependOnClassesThat()
                .resideInAnyPackage(
                    "io.fabric8.kubernetes.client.dsl..", "java.net..", "java.nio.file..")
                .orShould()
                .dependOnClassesThat()
                .resideInAPackage("..operator.reconcile..")
                .evaluate(operator)
                .getFailureReport()
                .getDetails())
        .as("violations")
        .isEmpty();
  }
}
