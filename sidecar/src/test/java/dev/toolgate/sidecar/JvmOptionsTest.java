package dev.toolgate.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The image's JVM options (src/main/jvm/jvm.options): a compile command naming a method that a
 * library upgrade renamed would silently stop applying, and one that is not quiet would print on
 * the sidecar's stdout, where its evidence events go.
 */
class JvmOptionsTest {

  private static final Path OPTIONS = Path.of("src/main/jvm/jvm.options");
  private static final String COMPILE_COMMAND = "-XX:CompileCommand=";

  private static List<String> compileCommands() throws IOException {
    return Files.readAllLines(OPTIONS).stream()
        .filter(line -> line.startsWith(COMPILE_COMMAND))
        .map(line -> line.substring(COMPILE_COMMAND.length()))
        .toList();
  }

  @Test
  void everyMethodACompileCommandNamesIsOnTheSidecarsClasspath() throws Exception {
    List<String> targets = compileCommands().stream().filter(c -> c.contains("::")).toList();

    assertThat(targets).isNotEmpty();
    for (String command : targets) {
      String pattern = command.substring(command.indexOf(',') + 1);
      String className = pattern.substring(0, pattern.indexOf("::"));
      String methodName = pattern.substring(pattern.indexOf("::") + 2);
      Class<?> type = Class.forName(className, false, getClass().getClassLoader());
      assertThat(Arrays.stream(type.getDeclaredMethods()).map(Method::getName))
          .as("%s declares %s", className, methodName)
          .contains(methodName);
    }
  }

  @Test
  void aJvmStartedWithTheImagesOptionsWritesNothingOnStdout() throws Exception {
    assertThat(compileCommands()).as("the options hold compile commands").isNotEmpty();
    String java = ProcessHandle.current().info().command().orElse("java");
    Process jvm = new ProcessBuilder(java, "@" + OPTIONS.toAbsolutePath(), "-version").start();
    assertThat(jvm.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(new String(jvm.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
        .contains("version");
    assertThat(new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
    assertThat(jvm.exitValue()).isZero();
  }
}
