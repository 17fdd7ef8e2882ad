package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.e2e.support.LocalProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The agent as the benchmark attaches it, on a real JVM of its own. */
class ProfilerIT {

  @TempDir Path work;

  @Test
  @Timeout(120)
  void writesTheFlameGraphOfAProcessWhenItExits() throws Exception {
    Profiler profiler = Profiler.of("cpu", work);
    List<String> arguments = new ArrayList<>(profiler.flags("busy loop"));
    arguments.addAll(
        List.of("-cp", System.getProperty("java.class.path"), BusyLoop.class.getName()));
    // Fails unless the process exits with status 0 within LocalProcess's limit.
    LocalProcess.runJava(work, "busy-loop", arguments);

    Path graph = profiler.flameGraph("busy loop");
    assertThat(graph).isRegularFile();
    assertThat(frames(Files.readString(graph))).contains("dev/toolgate/bench/BusyLoop.spin");
  }

  /**
   * The frame names of an async-profiler flame graph: its {@code cpool} array, where each entry
   * after the first keeps as many leading characters of the one before as its first character's
   * code minus 32.
   */
  private static List<String> frames(String html) {
    int start = html.indexOf("const cpool = [");
    assertThat(start).as("a cpool array in the flame graph").isNotNegative();
    List<String> names = new ArrayList<>();
    for (String line : html.substring(start, html.indexOf("\n];", start)).split("\n")) {
      line = line.strip();
      if (!line.startsWith("'")) {
        continue;
      }
      String packed =
          line.substring(1, line.lastIndexOf('\'')).replace("\\'", "'").replace("\\\\", "\\");
      names.add(
          names.isEmpty()
              ? packed
              : names.get(names.size() - 1).substring(0, packed.charAt(0) - 32)
                  + packed.substring(1));
    }
    return names;
  }
}
