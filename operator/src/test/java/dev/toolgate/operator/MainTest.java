package dev.toolgate.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {

  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(args, new PrintStream(out), new PrintStream(err));
  }

  @Test
  void rendersAToolPolicyFileOnStdout() {
    int code =
        run(
            "render",
            "-f",
            "../e2e/demo/toolpolicy.yaml",
            "--revision",
            "3",
            "--shared-state",
            "embedded");

    assertThat(code).isZero();
    assertThat(out.toString())
        .contains("revision: 3")
        .contains("mode: \"embedded\"")
        .contains("get_deployment_job");
  }

  @Test
  void rendersTheListenersOnThePortsAsked() {
    int code =
        run(
            "render",
            "-f",
            "../e2e/demo/toolpolicy.yaml",
            "--listen-port",
            "16000",
            "--admin-port",
            "16020");

    assertThat(code).isZero();
    assertThat(out.toString())
        .contains("listen:\n  host: \"127.0.0.1\"\n  port: 16000")
        .contains("port: 16020");
  }

  @Test
  void refusesAPortOutOfRange() {
    assertThat(run("render", "-f", "../e2e/demo/toolpolicy.yaml", "--listen-port", "70000"))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains("Invalid value for option '--listen-port': must be in [1, 65535], was 70000");
  }

  @Test
  void rendersTheWarmupAskedIntoTheRuntimeSection() {
    int code = run("render", "-f", "../e2e/demo/toolpolicy.yaml", "--warmup-calls", "0");

    assertThat(code).isZero();
    assertThat(out.toString()).contains("\n  warmupCalls: 0\n");
  }

  @Test
  void rendersTheSidecarsOwnWarmupWhenNoneIsAsked() {
    assertThat(run("render", "-f", "../e2e/demo/toolpolicy.yaml")).isZero();
    assertThat(out.toString()).contains("\n  warmupCalls: 1000\n");
  }

  @Test
  void refusesAWarmupOutsideTheSidecarsBounds() {
    assertThat(run("render", "-f", "../e2e/demo/toolpolicy.yaml", "--warmup-calls", "-1"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("warmupCalls: must be between 0 (off) and 100000, was -1");
    assertThat(run("render", "-f", "../e2e/demo/toolpolicy.yaml", "--warmup-calls", "100001"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("was 100001");
    assertThat(run("render", "-f", "../e2e/demo/toolpolicy.yaml", "--warmup-calls", "many"))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains("Invalid value for option '--warmup-calls': 'many' is not an int");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void explainsAnInvalidPolicyAndFailsWithTwo() throws Exception {
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(
        bad,
        "apiVersion: toolgate.dev/v1alpha1\nkind: ToolPolicy\nmetadata: {name: b}\nspec: {upstreams: []}\n");

    int code = run("render", "-f", bad.toString());

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("upstreams: at least one upstream is required");
  }

  @Test
  void documentsTheRenderOptions() {
    assertThat(run("render", "--help")).isZero();
    assertThat(out.toString()).contains("--upstream=NAME=URL");
  }

  @Test
  void documentsTheRunCommandsSettings() {
    assertThat(run("run", "--help")).isZero();
    assertThat(out.toString())
        .contains("TOOLGATE_SIDECAR_IMAGE")
        .contains("POD_NAME")
        .contains(
            "TOOLGATE_SIDECAR_WARMUP_CALLS  every sidecar's runtime.warmupCalls, 0 (off) to 100000");
  }

  @Test
  void explainsBadArguments() {
    assertThat(run("render")).isEqualTo(2);
    assertThat(err.toString())
        .contains("Missing required option: '--file=FILE'")
        .contains("Usage:");
    assertThat(run("reconcile")).isEqualTo(2);
    assertThat(err.toString()).contains("Unmatched argument at index 0: 'reconcile'");
  }
}
