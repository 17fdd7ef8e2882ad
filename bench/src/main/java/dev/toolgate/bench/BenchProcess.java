package dev.toolgate.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A process the benchmark starts, with its CPU time and resident memory read from /proc. */
final class BenchProcess implements AutoCloseable {

  static final String JAVA = ProcessHandle.current().info().command().orElse("java");
  private static final double TICKS_PER_SECOND = 100.0;

  final String name;
  private final Process process;

  private BenchProcess(String name, Process process) {
    this.name = name;
    this.process = process;
  }

  static BenchProcess start(String name, Path logs, List<String> command) throws IOException {
    return start(name, logs, command, Map.of());
  }

  static BenchProcess start(String name, Path logs, List<String> command, Map<String, String> environment)
      throws IOException {
    Files.createDirectories(logs);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    Process p = builder
        .redirectOutput(logs.resolve(name + ".out").toFile())
        .redirectError(logs.resolve(name + ".err").toFile())
        .start();
    return new BenchProcess(name, p);
  }

  static BenchProcess java(String name, Path logs, List<String> arguments) throws IOException {
    return java(name, logs, arguments, Map.of());
  }

  static BenchProcess java(String name, Path logs, List<String> arguments, Map<String, String> environment)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(JAVA);
    command.addAll(arguments);
    return start(name, logs, command, environment);
  }

  /** Runs to completion; fails with the process's stderr unless it exits 0. */
  static void run(String name, Path logs, List<String> command) throws Exception {
    BenchProcess p = start(name, logs, command);
    if (!p.process.waitFor(120, TimeUnit.SECONDS) || p.process.exitValue() != 0) {
      p.close();
      throw new IllegalStateException(name + " failed: " + Files.readString(logs.resolve(name + ".err")));
    }
  }

  boolean alive() {
    return process.isAlive();
  }

  private Stream<ProcessHandle> tree() {
    return Stream.concat(Stream.of(process.toHandle()), process.toHandle().descendants());
  }

  /** CPU seconds (user + system) used so far by the process and its children processes. */
  double cpuSeconds() {
    return tree().mapToLong(h -> {
      try {
        String stat = Files.readString(Path.of("/proc/" + h.pid() + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
      } catch (IOException | RuntimeException e) {
        return 0;
      }
    }).sum() / TICKS_PER_SECOND;
  }

  /** Resident memory of the process and its children, in MiB. */
  double residentMib() {
    return tree().mapToLong(h -> {
      try {
        for (String line : Files.readAllLines(Path.of("/proc/" + h.pid() + "/status"))) {
          if (line.startsWith("VmRSS:")) {
            return Long.parseLong(line.replaceAll("[^0-9]", ""));
          }
        }
      } catch (IOException | RuntimeException e) {
        return 0;
      }
      return 0;
    }).sum() / 1024.0;
  }

  @Override
  public void close() {
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
