package dev.toolgate.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * async-profiler (Maven Central's {@code tools.profiler:async-profiler}, on the benchmark's class
 * path) attached to a sidecar from its start: sampling of one event over the sidecar's whole life,
 * written as a flame graph ({@code <target>.html}) when it exits. The agent samples without
 * safepoint bias and sees native and kernel frames (system calls, the JIT, GC), which JFR does not.
 */
final class Profiler {

  /** What {@code --profile} offers: the agent's event, its sampling option, and what it samples. */
  enum Event {
    CPU(
        "interval=1ms",
        "on-CPU time, every 1 ms of CPU (perf events, or a timer where the kernel refuses them)"),
    ALLOC(
        "alloc=512k",
        "allocated bytes, every 512 KiB per thread (TLAB refills and outside-TLAB allocations)"),
    WALL("interval=5ms", "wall-clock time of every thread, every 5 ms, whether it runs or waits"),
    LOCK("lock=10us", "contended Java monitors and locks, weighted by the time waited");

    private final String option;
    private final String description;

    Event(String option, String description) {
      this.option = option;
      this.description = description;
    }

    /** The agent's name for it, and --profile's. */
    String agentName() {
      return name().toLowerCase(Locale.ROOT);
    }

    String description() {
      return description;
    }
  }

  private final Event event;
  private final Path library;
  private final Path profiles;

  private Profiler(Event event, Path library, Path profiles) {
    this.event = event;
    this.library = library;
    this.profiles = profiles;
  }

  /**
   * Extracts the agent for this machine into {@code work/profiler} and makes {@code work/profiles}
   * for the flame graphs; fails naming the event or the platform it cannot profile.
   */
  static Profiler of(String name, Path work) throws IOException {
    Event event =
        Arrays.stream(Event.values())
            .filter(e -> e.agentName().equals(name))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "--profile must be one of "
                            + String.join(
                                ", ",
                                Arrays.stream(Event.values())
                                    .map(Event::agentName)
                                    .sorted()
                                    .toList())
                            + ", was '"
                            + name
                            + "'"));
    String resource = platform() + "/libasyncProfiler.so";
    Path library = work.resolve("profiler").resolve("libasyncProfiler.so");
    try (InputStream in = Profiler.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "no async-profiler library for this machine ("
                + resource
                + " is not on the class path; its jars cover linux-x64 and linux-arm64)");
      }
      Files.createDirectories(library.getParent());
      Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
    }
    Path profiles = Files.createDirectories(work.resolve("profiles"));
    return new Profiler(event, library, profiles);
  }

  private static String platform() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch");
    if (!os.startsWith("linux")) {
      return "unsupported-" + os.replace(' ', '-');
    }
    return switch (arch) {
      case "amd64", "x86_64" -> "linux-x64";
      case "aarch64" -> "linux-arm64";
      default -> "linux-" + arch;
    };
  }

  /** Where the flame graph of a target goes. */
  Path flameGraph(String target) {
    return profiles.resolve(LoadBench.fileName(target) + ".html");
  }

  /** The JVM flag that profiles a target's process from its start to its exit. */
  List<String> flags(String target) {
    return List.of(
        "-agentpath:"
            + library
            + "=start,event="
            + event.agentName()
            + ","
            + event.option
            + ",file="
            + flameGraph(target));
  }

  Event event() {
    return event;
  }
}
