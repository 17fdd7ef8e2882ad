package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.e2e.support.LocalProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark as its users run it: a process of its own, which they may stop at any time. */
class LoadBenchIT {

  @TempDir Path work;

  private Process bench;
  private Process second;
  private List<ProcessHandle> children = List.of();

  @AfterEach
  void stopWhatIsLeft() {
    if (second != null) {
      second.descendants().forEach(ProcessHandle::destroyForcibly);
      second.destroyForcibly();
    }
    children.forEach(ProcessHandle::destroyForcibly);
    if (bench != null) {
      bench.descendants().forEach(ProcessHandle::destroyForcibly);
      bench.destroyForcibly();
    }
  }

  private static boolean isTrainingStep(ProcessHandle p) {
    return p.info().commandLine().orElse("").contains("-XX:DumpLoadedClassList");
  }

  /**
   * The JVM's arguments that run the benchmark with these options, in this checkout's work
   * directory.
   */
  private static List<String> arguments(String... options) {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "-cp",
                System.getProperty("java.class.path"),
                "-Dtoolgate.root=..",
                LoadBench.class.getName()));
    arguments.addAll(List.of(options));
    return arguments;
  }

  /** The benchmark with the options of a short run. */
  private static ProcessBuilder benchmark() {
    List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(
        arguments(
            "--targets",
            "direct",
            "--rates",
            "100",
            "--seconds",
            "1",
            "--first-calls",
            "0",
            "--warmup-calls",
            "0"));
    return new ProcessBuilder(command);
  }

  /** The benchmark started, its output discarded: the run the tests stop or run beside. */
  private static Process runningInBackground() throws IOException {
    return benchmark()
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  @Test
  void runsToItsEndWithoutTheFullPolicyAndTimesTheSidecarsStart() throws Exception {
    // Fails unless the run ends, with status 0, within LocalProcess's limit (its output in files,
    // not a
    // pipe, whose read would wait past any time limit on whatever still held it).
    String said =
        LocalProcess.runJava(
            work,
            "load-bench",
            arguments(
                "--targets",
                "direct",
                "--rates",
                "100",
                "--seconds",
                "1",
                "--warmup",
                "1",
                "--settle",
                "1",
                "--starts",
                "1",
                "--first-calls",
                "0",
                "--warmup-calls",
                "0"));

    assertThat(said)
        .contains("time to ready")
        .containsPattern("with the class-data archive +median +\\d+ ms");
    assertThat(said)
        .as("the rate's table reads the tail without the machine's reclaim, or says why not")
        .contains("quiet+p99")
        .containsPattern("\nmemory reclaim[ :]");
  }

  @Test
  void leavesNoProcessBehindWhenStoppedWithSigterm() throws Exception {
    bench = runningInBackground();
    // Stopped while it records the image's class-data archive: the backend and the Hazelcast member
    // are running (kept), and so is a training step, which the benchmark does not keep.
    await("a training step of the image")
        .atMost(Duration.ofSeconds(60))
        .until(() -> bench.descendants().anyMatch(LoadBenchIT::isTrainingStep));
    children = bench.descendants().toList();

    bench.destroy();

    assertThat(children).hasSizeGreaterThanOrEqualTo(3);
    await("the benchmark exits").atMost(Duration.ofSeconds(60)).until(() -> !bench.isAlive());
    assertThat(children).as("the processes it had started").noneMatch(ProcessHandle::isAlive);
  }

  @Test
  void refusesToRunBesideAnotherRunAndLeavesThatRunAlone() throws Exception {
    bench = runningInBackground();
    await("the first run's children")
        .atMost(Duration.ofSeconds(60))
        .until(() -> bench.descendants().findAny().isPresent());

    second = benchmark().redirectErrorStream(true).start();

    // Its one line fits the pipe's buffer: read once it has exited, so a run that was let in fails
    // here, not hangs.
    assertThat(second.waitFor(30, TimeUnit.SECONDS)).as("the second run exits").isTrue();
    String said = new String(second.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(second.exitValue()).isEqualTo(2);
    assertThat(said)
        .startsWith("error: another load benchmark is running in ")
        .contains("pid " + bench.pid());
    assertThat(Files.readString(Path.of("target/load", WorkLock.FILE)))
        .as("the lock's holder")
        .startsWith("pid " + bench.pid() + ",");
    assertThat(bench.isAlive()).as("the first run goes on").isTrue();
  }
}
