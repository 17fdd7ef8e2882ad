package dev.toolgate.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * async-profiler (Maven Central's {@code tools.profiler:async-profiler}, on the benchmark's class
 * path) attached to a sidecar from its start: sampling of one event over the sidecar's whole life,
 * written as a flame graph ({@code <target>.html}) when it exits. The agent samples without
 * safepoint bias and sees native and kernel frames (system calls, the JIT, GC), which JFR does not.
 */
final class Profiler {

  /** What each event samples, as {@code --profile} offers them; the agent's own names. */
  static final Map<String, String> EVENTS = Map.of(
      "cpu", "on-CPU time, every 1 ms of CPU (perf events, or a timer where the kernel refuses them)",
      "alloc", "allocated bytes, every 512 KiB per thread (TLAB refills and outside-TLAB allocations)",
      "wall", "wall-clock time of every thread, every 5 ms, whether it runs or waits",
      "lock", "contended Java monitors and locks, weighted by the time waited");
  private static final Map<String, String> INTERVALS = Map.of(
      "cpu", "interval=1ms", "alloc", "alloc=512k", "wall", "interval=5ms", "lock", "lock=10us");

  private final String event;
  private final Path library;
  private final Path profiles;

  private Profiler(String event, Path library, Path profiles) {
    this.event = event;
    this.library = library;
    this.profiles = profiles;
  }

  /**
   * Extracts the agent for this machine into {@code work/profiler} and makes {@code work/profiles}
   * for the flame graphs; fails naming the event or the platform it cannot profile.
   */
  static Profiler of(String event, Path work) throws IOException {
    if (!EVENTS.containsKey(event)) {
      throw new IllegalArgumentException("--profile must be one of " + String.join(", ", EVENTS.keySet().stream().sorted().toList())
          + ", was '" + event + "'");
    }
    String resource = platform() + "/libasyncProfiler.so";
    Path library = work.resolve("profiler").resolve("libasyncProfiler.so");
    try (InputStream in = Profiler.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no async-profiler library for this machine (" + resource
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
    return profiles.resolve(target.replaceAll("[^a-zA-Z0-9.-]+", "-") + ".html");
  }

  /** The JVM flag that profiles a target's process from its start to its exit. */
  List<String> flags(String target) {
    return List.of("-agentpath:" + library + "=start,event=" + event + "," + INTERVALS.get(event)
        + ",file=" + flameGraph(target));
  }

  String event() {
    return event;
  }
}
