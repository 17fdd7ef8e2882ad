package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.e2e.support.LocalProcess;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The one-call-at-a-time table's "jit µs/call": the CPU of a JVM's JIT compiler threads, from
 * /proc.
 */
class CompilerTicksTest {

  @Test
  void recognisesHotSpotsCompilerThreadsByTheNameTheKernelKeeps() {
    assertThat(
            LocalProcess.isCompilerThread(
                "4211 (C2 CompilerThre) S 4190 4190 1 0 -1 1077936192 2 0 0 0 811 96 0 0"))
        .isTrue();
    assertThat(
            LocalProcess.isCompilerThread(
                "4212 (C1 CompilerThre) S 4190 4190 1 0 -1 1077936192 2 0 0 0 97 12 0 0"))
        .isTrue();
    assertThat(
            LocalProcess.isCompilerThread(
                "4230 (vert.x-eventloo) S 4190 4190 1 0 -1 1077936192 2 0 0 0 1290 603 0 0"))
        .isFalse();
    assertThat(
            LocalProcess.isCompilerThread("4190 (java) S 4100 4190 1 0 -1 4194560 2 0 0 0 1 0 0 0"))
        .isFalse();
  }

  @Test
  void readsTheCompilerThreadsOfARunningJvm() {
    long pid = ProcessHandle.current().pid();
    long[] sink = {0};

    // This JVM compiles as it runs (JUnit, AssertJ, the loop below): its compiler threads' ticks
    // grow from 0.
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () -> {
              for (int i = 0; i < 200_000; i++) {
                sink[0] += Long.hashCode(sink[0] * 31 + i);
              }
              return LocalProcess.compilerTicks(pid) > 0;
            });

    assertThat(LocalProcess.compilerTicks(pid)).isPositive();
    assertThat(LocalProcess.compilerTicks(-1)).as("a process that is not there").isZero();
  }
}
