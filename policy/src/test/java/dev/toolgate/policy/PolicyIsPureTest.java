package dev.toolgate.policy;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.domain.properties.HasOwner;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * The policy core decides; it never does I/O nor knows Vert.x, Kubernetes or Hazelcast, and it
 * reads neither the time nor randomness itself: both are given to it, so every decision can be
 * replayed in a test. Schema annotations ({@code io.fabric8.generator.annotation}) are metadata,
 * not a framework: the model carries its bounds with them.
 */
class PolicyIsPureTest {

  private final JavaClasses policy =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.toolgate.policy");

  @Test
  void dependsOnNoRuntimeFramework() {
    assertThat(
            noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                    "io.vertx..",
                    "io.fabric8.kubernetes..",
                    "io.fabric8.crd..",
                    "com.hazelcast..",
                    "io.netty..",
                    "io.micrometer..")
                .evaluate(policy)
                .getFailureReport()
                .getDetails())
        .as("violations")
        .isEmpty();
  }

  @Test
  void doesNoIo() {
    assertThat(
            noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.nio.file..", "java.nio.channels..", "java.net.http..")
                .evaluate(policy)
                .getFailureReport()
                .getDetails())
        .as("violations")
        .isEmpty();
  }

  @Test
  void readsNoClockOfItsOwn() {
    assertThat(
            noClasses()
                .should()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(System.class, "nanoTime")
                .orShould()
                .callMethodWhere(
                    JavaCall.Predicates.target(HasName.Predicates.name("now"))
                        .and(
                            JavaCall.Predicates.target(
                                HasOwner.Predicates.With.owner(
                                    JavaClass.Predicates.belongToAnyOf(
                                        Instant.class,
                                        LocalDateTime.class,
                                        ZonedDateTime.class,
                                        OffsetDateTime.class,
                                        LocalDate.class)))))
                .orShould()
                .callMethod(Clock.class, "systemUTC")
                .orShould()
                .callMethod(Clock.class, "systemDefaultZone")
                .evaluate(policy)
                .getFailureReport()
                .getDetails())
        .as("violations")
        .isEmpty();
  }

  @Test
  void drawsNoRandomnessOfItsOwn() {
    assertThat(
            noClasses()
                .should()
                .dependOnClassesThat()
                .belongToAnyOf(
                    Random.class,
                    ThreadLocalRandom.class,
                    SecureRandom.class,
                    SplittableRandom.class,
                    UUID.class)
                .orShould()
                .callMethod(Math.class, "random")
                .evaluate(policy)
                .getFailureReport()
                .getDetails())
        .as("violations")
        .isEmpty();
  }
}
