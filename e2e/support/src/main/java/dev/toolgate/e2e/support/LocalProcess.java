package dev.toolgate.e2e.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

/**
 * A process started on this machine, its output in files, its CPU time and resident memory read
 * from /proc (with its children's), stopped and waited for on close.
 */
public final class LocalProcess implements AutoCloseable {

  /** The JVM running this code: every Java process is started with the same one. */
  public static final String JAVA = ProcessHandle.current().info().command().orElse("java");

  /** Clock ticks per second in /proc's CPU times (USER_HZ). */
  public static final double TICKS_PER_SECOND = 100.0;

  private static final AtomicLong RUNS = new AtomicLong();

  private final String name;
  private final Path stdout;
  private final Path stderr;
  private final Process process;

  private LocalProcess(String name, Path stdout, Path stderr, Process process) {
    this.name = name;
    this.stdout = stdout;
    this.stderr = stderr;
    this.process = process;
  }

  public static LocalProcess start(
      String name, Path logs, List<String> command, Map<String, String> environment)
      throws IOException {
    Files.createDirectories(logs);
    Path out = logs.resolve(name + ".out");
    Path err = logs.resolve(name + ".err");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    return new LocalProcess(
        name, out, err, builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start());
  }

  public static LocalProcess java(
      String name, Path logs, List<String> arguments, Map<String, String> environment)
      throws IOException {
    return start(name, logs, javaCommand(arguments), environment);
  }

  private static List<String> javaCommand(List<String> arguments) {
    List<String> command = new ArrayList<>();
    command.add(JAVA);
    command.addAll(arguments);
    return command;
  }

  public static LocalProcess java(String name, Path logs, List<String> arguments)
      throws IOException {
    return java(name, logs, arguments, Map.of());
  }

  /**
   * Runs a short Java command to completion and returns its stdout; fails with its stderr
   * otherwise.
   */
  public static String runJava(Path logs, String name, List<String> arguments)
      throws IOException, InterruptedException {
    return runJava(logs, name, arguments, Map.of());
  }

  /** As {@link #runJava(Path, String, List)}, with these environment variables added. */
  public static String runJava(
      Path logs, String name, List<String> arguments, Map<String, String> environment)
      throws IOException, InterruptedException {
    return run(logs, name, javaCommand(arguments), environment);
  }

  /**
   * Runs a short command to completion, with these environment variables added, and returns its
   * stdout; fails with its stderr otherwise.
   */
  public static String run(
      Path logs, String name, List<String> command, Map<String, String> environment)
      throws IOException, InterruptedException {
    LocalProcess p = start(name + "-" + RUNS.incrementAndGet(), logs, command, environment);
    if (!p.process.waitFor(120, TimeUnit.SECONDS)) {
      p.close();
      throw new IllegalStateException(name + " did not finish within 120 s");
    }
    if (p.process.exitValue() != 0) {
      throw new IllegalStateException(
          name + " exited with " + p.process.exitValue() + ": " + Files.readString(p.stderr));
    }
    return Files.readString(p.stdout);
  }

  public String name() {
    return name;
  }

  public Path stdout() {
    return stdout;
  }

  public Path stderr() {
    return stderr;
  }

  public boolean alive() {
    return process.isAlive();
  }

  private Stream<ProcessHandle> tree() {
    return Stream.concat(Stream.of(process.toHandle()), process.toHandle().descendants());
  }

  /** The process's id and its children's: what /proc describes it by. */
  public List<Long> pids() {
    return tree().map(ProcessHandle::pid).toList();
  }

  /** CPU seconds (user + system) used so far by the process and its children. */
  public double cpuSeconds() {
    return tree()
            .mapToLong(
                h -> {
                  try {
                    return ticks(Files.readString(Path.of("/proc/" + h.pid() + "/stat")));
                  } catch (IOException | RuntimeException e) {
                    return 0;
                  }
                })
            .sum()
        / TICKS_PER_SECOND;
  }

  /**
   * CPU ticks (user + system) of each thread of process {@code pid} so far, by thread id; empty
   * where the process has ended or /proc is not there.
   */
  public static Map<Long, Long> threadTicks(long pid) {
    Map<Long, Long> ticks = new HashMap<>();
    forEachThread(pid, (tid, stat) -> ticks.put(tid, ticks(stat)));
    return ticks;
  }

  /**
   * Ticks (user + system) so far of the JIT compiler threads of the JVM {@code pid} (HotSpot's
   * {@code C1 CompilerThreadN} and {@code C2 CompilerThreadN}): what compiling has cost it. 0 for a
   * process without them, or where /proc is not there.
   */
  public static long compilerTicks(long pid) {
    long[] sum = {0};
    forEachThread(pid, (tid, stat) -> sum[0] += isCompilerThread(stat) ? ticks(stat) : 0);
    return sum[0];
  }

  /**
   * Each thread of process {@code pid} with its /proc {@code stat} line; none where the process has
   * ended or /proc is not there.
   */
  private static void forEachThread(long pid, BiConsumer<Long, String> thread) {
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      tasks.forEach(
          task -> {
            try {
              thread.accept(
                  Long.parseLong(task.getFileName().toString()),
                  Files.readString(task.resolve("stat")));
            } catch (IOException | RuntimeException e) {
              // the thread ended meanwhile
            }
          });
    } catch (IOException | RuntimeException e) {
      // the process ended, or no /proc
    }
  }

  /**
   * Whether a thread's /proc {@code stat} line names a HotSpot JIT compiler thread (the kernel
   * keeps 15 characters of a name).
   */
  public static boolean isCompilerThread(String stat) {
    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
  }

  /**
   * utime + stime of a /proc {@code stat} line (fields 14 and 15, counted after the command's
   * closing parenthesis).
   */
  private static long ticks(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /**
   * Context switches of every thread of the process and its children so far, voluntary (a thread
   * waited) and not (it was preempted): how often its threads hand work to each other and wait for
   * a core. 0 where /proc is not there.
   */
  public long contextSwitches() {
    return tree()
        .mapToLong(
            h -> {
              try (var tasks = Files.list(Path.of("/proc/" + h.pid() + "/task"))) {
                return tasks
                    .mapToLong(
                        task -> {
                          try {
                            return Files.readAllLines(task.resolve("status")).stream()
                                .filter(
                                    l ->
                                        l.startsWith("voluntary_ctxt_switches:")
                                            || l.startsWith("nonvoluntary_ctxt_switches:"))
                                .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", "")))
                                .sum();
                          } catch (IOException | RuntimeException e) {
                            return 0; // the thread ended meanwhile
                          }
                        })
                    .sum();
              } catch (IOException | RuntimeException e) {
                return 0;
              }
            })
        .sum();
  }

  /** Resident memory of the process and its children, in MiB (0 where /proc is not there). */
  public double residentMib() {
    return statusKib("VmRSS:") / 1024.0;
  }

  /**
   * The most resident memory the process has held since it started, in MiB (the kernel's VmHWM,
   * with its children's): a peak between two readings of {@link #residentMib()}, such as a JIT
   * compile's arenas, shows here and not there.
   */
  public double peakResidentMib() {
    return statusKib("VmHWM:") / 1024.0;
  }

  /**
   * The anonymous part of {@link #residentMib()}: memory private to the process (heap, stacks,
   * written pages), as opposed to pages of files that every process mapping them shares.
   */
  public double anonymousMib() {
    return statusKib("RssAnon:") / 1024.0;
  }

  private long statusKib(String field) {
    return tree()
        .mapToLong(
            h -> {
              try {
                for (String line : Files.readAllLines(Path.of("/proc/" + h.pid() + "/status"))) {
                  if (line.startsWith(field)) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                  }
                }
              } catch (IOException | RuntimeException e) {
                return 0;
              }
              return 0;
            })
        .sum();
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
      process.destroyForcibly();
    }
  }

  /**
   * Waits until this process accepts connections on a loopback {@code port} ({@code seconds} at
   * most); closes it and fails naming {@code what} if it exits or the time runs out.
   */
  public LocalProcess awaitListening(int port, int seconds, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    while (!listening(port)) {
      if (!alive() || System.nanoTime() > deadline) {
        close();
        throw new IllegalStateException(what + " did not start: see " + stderr());
      }
      Thread.sleep(50); // polling another process's port: there is no event to wait on
    }
    return this;
  }

  private static boolean listening(int port) {
    try (java.net.Socket socket = new java.net.Socket()) {
      socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
