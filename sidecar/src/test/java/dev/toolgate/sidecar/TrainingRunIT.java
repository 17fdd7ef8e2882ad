package dev.toolgate.sidecar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.e2e.support.LoopbackPorts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --exit-when-ready --start-member}: the image's client-mode training run, which needs a
 * member in another JVM so that the archive it records holds the client's classes.
 */
class TrainingRunIT {

  @TempDir Path dir;

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream stderr;

  @BeforeEach
  void captureStderr() {
    stderr = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreStderr() {
    System.setErr(stderr);
  }

  private Path config(String sharedState) throws IOException {
    Path file = dir.resolve("training.yaml");
    Files.writeString(
        file,
        """
        listen: {host: "127.0.0.1", port: 0}
        admin: {host: "127.0.0.1", port: 0}
        runtime: {warmupCalls: 50}
        %s
        upstreams:
        - {name: "training", url: "http://127.0.0.1:1/mcp"}
        tools:
        - {name: "read", upstream: "training", effect: "read_only"}
        """
            .formatted(sharedState));
    return file;
  }

  private static long trainingMembers() {
    return ProcessHandle.current()
        .descendants()
        .filter(p -> p.info().commandLine().orElse("").contains("TrainingMember"))
        .count();
  }

  @Test
  void aClientModeRunStartsItsOwnMemberConnectsAndStopsItAtExit() throws Exception {
    Path config =
        config(
            "sharedState: {mode: client, clusterName: toolgate-training, members: [\"127.0.0.1:"
                + LoopbackPorts.next()
                + "\"]}");

    int status =
        Main.run(
            new String[] {
              "--config",
              config.toString(),
              "--allow-unsigned-config",
              "--exit-when-ready",
              "--start-member"
            });

    assertThat(status).as(err.toString()).isZero();
    assertThat(err.toString()).contains("ready (/readyz 200); exiting as asked");
    await("the member's JVM is gone")
        .atMost(Duration.ofSeconds(15))
        .until(() -> trainingMembers() == 0);
  }

  @Test
  void refusesToStartAMemberForARunThatDoesNotEnd() throws Exception {
    Path config =
        config(
            "sharedState: {mode: client, members: [\"127.0.0.1:" + LoopbackPorts.next() + "\"]}");

    assertThat(
            Main.run(
                new String[] {
                  "--config", config.toString(), "--allow-unsigned-config", "--start-member"
                }))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--start-member goes with --exit-when-ready");
    assertThat(trainingMembers()).isZero();
  }

  @Test
  void refusesToStartAMemberOutsideClientMode() throws Exception {
    Path config = config("sharedState: {mode: local}");

    assertThat(
            Main.run(
                new String[] {
                  "--config",
                  config.toString(),
                  "--allow-unsigned-config",
                  "--exit-when-ready",
                  "--start-member"
                }))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains(
            "--start-member needs sharedState.mode client with members, was local with 0 members");
    assertThat(trainingMembers()).isZero();
  }
}
