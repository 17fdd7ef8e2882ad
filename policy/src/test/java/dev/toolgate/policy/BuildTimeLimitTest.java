package dev.toolgate.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The build gives every test a time limit (the parent pom's {@code toolgate.testTimeout}, passed to
 * JUnit by surefire and failsafe). Checked here because a misplaced parameter is dropped with a
 * mere warning, and then a hung test holds the build until CI's own limit.
 */
class BuildTimeLimitTest {

  private static String limit;
  private static String threadDump;

  @RegisterExtension
  static final BeforeEachCallback READ_PARAMETERS =
      context -> {
        limit =
            context
                .getConfigurationParameter("junit.jupiter.execution.timeout.default")
                .orElse(null);
        threadDump =
            context
                .getConfigurationParameter("junit.jupiter.execution.timeout.threaddump.enabled")
                .orElse(null);
      };

  @Test
  void runsEveryTestUnderTheParentPomsTimeLimitAndPrintsTheThreadsOfOneThatOutlastsIt() {
    assertThat(limit).as("the default time limit JUnit was given").isEqualTo("90 s");
    assertThat(threadDump).as("thread dump on timeout").isEqualTo("true");
  }
}
