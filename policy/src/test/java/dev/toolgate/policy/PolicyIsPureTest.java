package dev.toolgate.policy;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The policy core decides; it never does I/O nor knows Vert.x, Kubernetes or Hazelcast. */
class PolicyIsPureTest {

  private final JavaClasses policy =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.toolgate.policy");

  @Test
  void dependsOnNoRuntimeFramework() {
    assertThat(noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.vertx..", "io.fabric8..", "com.hazelcast..", "io.netty..", "io.micrometer..")
        .evaluate(policy)
        .getFailureReport()
        .getDetails()).as("violations").isEmpty();
  }

  @Test
  void doesNoIo() {
    assertThat(noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.nio.file..", "java.nio.channels..", "java.net.http..")
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .evaluate(policy)
        .getFailureReport()
        .getDetails()).as("violations").isEmpty();
  }
}
