package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The benchmark as its users run it: a process of its own, which they may stop at any time. */
class LoadBenchIT {

  private Process bench;
  private List<ProcessHandle> children = List.of();

  @AfterEach
  void stopWhatIsLeft() {
    children.forEach(ProcessHandle::destroyForcibly);
    if (bench != null) {
      bench.descendants().forEach(ProcessHandle::destroyForcibly);
      bench.destroyForcibly();
    }
  }

  private static boolean isTrainingStep(ProcessHandle p) {
    return p.info().commandLine().orElse("").contains("-XX:DumpLoadedClassList");
  }

  @Test
  void leavesNoProcessBehindWhenStoppedWithSigterm() throws Exception {
    bench = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), "-Dtoolgate.root=..", LoadBench.class.getName(),
            "--targets", "direct", "--rates", "100", "--seconds", "1", "--first-calls", "0", "--warmup-calls", "0"))
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    // Stopped while it records the image's class-data archive: the backend and the Hazelcast member
    // are running (kept), and so is a training step, which the benchmark does not keep.
    await("a training step of the image").atMost(Duration.ofSeconds(60))
        .until(() -> bench.descendants().anyMatch(LoadBenchIT::isTrainingStep));
    children = bench.descendants().toList();

    bench.destroy();

    assertThat(children).hasSizeGreaterThanOrEqualTo(3);
    await("the benchmark exits").atMost(Duration.ofSeconds(60)).until(() -> !bench.isAlive());
    assertThat(children).as("the processes it had started").noneMatch(ProcessHandle::isAlive);
  }
}
