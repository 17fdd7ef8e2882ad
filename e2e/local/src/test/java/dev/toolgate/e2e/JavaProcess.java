package dev.toolgate.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A JVM started by the suite, its output in files, stopped (and waited for) on close. */
final class JavaProcess implements AutoCloseable {

  private static final java.util.concurrent.atomic.AtomicLong RUNS = new java.util.concurrent.atomic.AtomicLong();
  private static final String JAVA = ProcessHandle.current().info().command().orElse("java");

  final String name;
  final Path stdout;
  final Path stderr;
  private final Process process;

  private JavaProcess(String name, Path stdout, Path stderr, Process process) {
    this.name = name;
    this.stdout = stdout;
    this.stderr = stderr;
    this.process = process;
  }

  static JavaProcess start(String name, Path logs, List<String> arguments) throws IOException {
    return start(name, logs, arguments, java.util.Map.of());
  }

  static JavaProcess start(String name, Path logs, List<String> arguments, java.util.Map<String, String> environment)
      throws IOException {
    Files.createDirectories(logs);
    List<String> command = new ArrayList<>();
    command.add(JAVA);
    command.addAll(arguments);
    Path out = logs.resolve(name + ".out");
    Path err = logs.resolve(name + ".err");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    return new JavaProcess(name, out, err, process);
  }

  /** Runs a short command to completion and returns its stdout; fails with its stderr otherwise. */
  static String run(Path logs, String name, List<String> arguments) throws IOException, InterruptedException {
    JavaProcess p = start(name + "-" + RUNS.incrementAndGet(), logs, arguments);
    if (!p.process.waitFor(60, TimeUnit.SECONDS)) {
      p.close();
      throw new IllegalStateException(name + " did not finish within 60 s");
    }
    if (p.process.exitValue() != 0) {
      throw new IllegalStateException(name + " exited with " + p.process.exitValue() + ": " + Files.readString(p.stderr));
    }
    return Files.readString(p.stdout);
  }

  boolean alive() {
    return process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  /** Resident set size from /proc, in KiB (0 where /proc is not there). */
  long residentKib() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
    return 0;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
