package dev.toolgate.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolgate.e2e.support.LocalProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart's {@code sidecar.warmupCalls} travels operator → rendered file → sidecar: both jars run
 * as processes, so the operator's bound and the sidecar's are checked against each other.
 */
class WarmupSettingIT {

  private static final Path ROOT =
      Path.of(System.getProperty("toolgate.root", "../..")).toAbsolutePath().normalize();

  @TempDir Path work;

  private String render(String warmupCalls) throws Exception {
    Path key = work.resolve("approval-keys.json");
    if (!Files.exists(key)) {
      LocalProcess.runJava(
          work,
          "approval-keygen",
          List.of(
              "-jar",
              jar("sidecar", "toolgate-sidecar.jar"),
              "approve",
              "keygen",
              "--key-id",
              "warmup",
              "--private",
              work.resolve("approver.jwk").toString(),
              "--public",
              key.toString()));
    }
    return LocalProcess.runJava(
        work,
        "render",
        List.of(
            "-jar",
            jar("operator", "toolgate-operator.jar"),
            "render",
            "-f",
            ROOT.resolve("e2e/demo/toolpolicy.yaml").toString(),
            "--shared-state",
            "local",
            "--approval-keys-file",
            key.toString(),
            "--warmup-calls",
            warmupCalls));
  }

  private String check(String config) throws Exception {
    Path file = work.resolve("sidecar.yaml");
    Files.writeString(file, config);
    return LocalProcess.runJava(
        work,
        "check",
        List.of(
            "-jar",
            jar("sidecar", "toolgate-sidecar.jar"),
            "--config",
            file.toString(),
            "--allow-unsigned-config",
            "--check"));
  }

  private static String jar(String module, String name) {
    return ROOT.resolve(module).resolve("target").resolve(name).toString();
  }

  @Test
  void theSidecarAcceptsTheLargestWarmupTheOperatorRenders() throws Exception {
    String rendered = render("100000");

    assertThat(rendered).contains("runtime:\n").contains("\n  warmupCalls: 100000\n");
    assertThat(check(rendered)).startsWith("valid: ");
  }

  @Test
  void bothRefuseOneCallMore() throws Exception {
    assertThatThrownBy(() -> render("100001"))
        .hasMessageContaining("warmupCalls: must be between 0 (off) and 100000, was 100001");
    String oneMore = render("100000").replace("warmupCalls: 100000", "warmupCalls: 100001");
    assertThatThrownBy(() -> check(oneMore))
        .hasMessageContaining(
            "runtime.warmupCalls: must be between 0 (off) and 100000, was 100001");
  }

  @Test
  void theOperatorRefusesToRunWithABadSettingBeforeReachingTheCluster() {
    assertThatThrownBy(
            () ->
                LocalProcess.runJava(
                    work,
                    "operator-run",
                    List.of("-jar", jar("operator", "toolgate-operator.jar"), "run"),
                    Map.of(
                        "TOOLGATE_SIDECAR_WARMUP_CALLS",
                        "many",
                        "KUBECONFIG",
                        work.resolve("none").toString())))
        .hasMessageContaining("exited with 2")
        .hasMessageContaining("TOOLGATE_SIDECAR_WARMUP_CALLS: takes a whole number, was 'many'");
  }
}
