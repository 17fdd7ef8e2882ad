package dev.toolgate.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongSupplier;

/**
 * Every call slower than a threshold, with its target, the benchmark's phase and its wall-clock due
 * time, written as tab-separated lines when the run ends: a tail lined up with the processes' GC
 * logs ({@code -Xlog:gc:file=…:timemillis}) or with the start of a wall-clock second, which the
 * histograms cannot do. Calls are kept in memory until then (one short line each; a run that
 * records many sets the threshold higher). The stalls of the kernel's memory reclaim seen meanwhile
 * go to a file beside it, on the same wall clock.
 */
final class SlowCalls {

  /** The file of the reclaim's stalls, beside the calls'. */
  static final String STALLS_FILE = "reclaim-stalls.tsv";

  /** Records nothing. */
  static final SlowCalls OFF =
      new SlowCalls(null, Long.MAX_VALUE, System::currentTimeMillis, System::nanoTime);

  private final Path file;
  private final long thresholdMicros;
  private final LongSupplier wallMillis;
  private final LongSupplier monotonicNanos;
  private final Queue<String> lines = new ConcurrentLinkedQueue<>();
  private final Queue<String> stalls = new ConcurrentLinkedQueue<>();
  private volatile String phase = "start";

  SlowCalls(Path file, long thresholdMicros, LongSupplier wallMillis, LongSupplier monotonicNanos) {
    if (thresholdMicros < 0) {
      throw new IllegalArgumentException(
          "the slow-call threshold must be >= 0 µs, was " + thresholdMicros);
    }
    this.file = file;
    this.thresholdMicros = thresholdMicros;
    this.wallMillis = wallMillis;
    this.monotonicNanos = monotonicNanos;
  }

  /** Calls over {@code thresholdMs} ms, to {@code file}; 0 records nothing. */
  static SlowCalls over(int thresholdMs, Path file) {
    return thresholdMs == 0
        ? OFF
        : new SlowCalls(file, thresholdMs * 1000L, System::currentTimeMillis, System::nanoTime);
  }

  /** What the benchmark loads from now on, e.g. {@code rate 1000}: a column of every later line. */
  void phase(String name) {
    phase = name;
  }

  /**
   * A call of {@code target} due at {@code dueNanos} ({@link System#nanoTime}) that took {@code
   * micros}.
   */
  void record(String target, long dueNanos, long micros) {
    if (micros <= thresholdMicros) {
      return;
    }
    lines.add(
        String.format(Locale.ROOT, "%s\t%s\t%d\t%d", phase, target, wallMillis(dueNanos), micros));
  }

  /**
   * A stall of the kernel's memory reclaim, kept (when recording) to be written beside the calls.
   */
  void stall(MemoryReclaim.Burst stall) {
    if (file != null) {
      stalls.add(
          String.format(
              Locale.ROOT,
              "%d\t%d\t%d",
              wallMillis(stall.startNanos()),
              wallMillis(stall.endNanos()),
              stall.cpuNanos() / 1_000));
    }
  }

  /** A {@link System#nanoTime} reading as wall-clock milliseconds since the epoch. */
  private long wallMillis(long nanos) {
    return wallMillis.getAsLong() - (monotonicNanos.getAsLong() - nanos) / 1_000_000;
  }

  /** How many calls were recorded. */
  int count() {
    return lines.size();
  }

  /**
   * Writes what was recorded, each file with a header, and returns the calls' file (null when off);
   * the stalls go to {@link #STALLS_FILE} beside it.
   */
  Path write() throws IOException {
    if (file == null) {
      return null;
    }
    Files.createDirectories(file.getParent());
    write(file.resolveSibling(STALLS_FILE), "start_epoch_ms\tend_epoch_ms\tcpu_us", stalls);
    return write(file, "phase\ttarget\tdue_epoch_ms\tlatency_us", lines);
  }

  private static Path write(Path to, String header, Queue<String> rows) throws IOException {
    List<String> out = new ArrayList<>(rows.size() + 1);
    out.add(header);
    out.addAll(rows);
    return Files.write(to, out);
  }
}
