package dev.toolgate.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * The kernel's memory-reclaim threads ({@code kdamond.N}, DAMON's monitor that pages cold memory
 * out, and {@code kswapd}), watched while the benchmark runs: on these VMs a {@code kdamond} takes
 * one of the two cores for about 20 ms twice a second, and every target's slow calls fall beside
 * those bursts (docs/performance.md). Knowing when they ran lets the fixed-rate tables read each
 * target's p99 both with and without the calls due near one.
 *
 * <p>Algorithm: every {@value #SAMPLE_NANOS} ns a daemon thread reads the threads' summed run time
 * (the first field of {@code /proc/<pid>/schedstat}, in ns); a sample that finds it grown marks the
 * time since the previous sample as reclaim; such samples within {@value #GAP_NANOS} ns of each
 * other make one burst, and a burst that ran at least {@value #STALL_NANOS} ns of CPU is a stall.
 * The kernel adds a running thread's time at each scheduler tick (4 ms at 250 Hz), so a burst is
 * seen up to a tick late: the margin around a stall covers that. Cost: one positional read of a
 * small file per thread per sample and a wake-up, some 30 µs a sample on these VMs, about 1 % of a
 * core; what the sampler's thread used is read back ({@link #samplerCpuNanos()}) and printed.
 */
final class MemoryReclaim implements AutoCloseable {

  /**
   * A scheduler tick at 250 Hz: the kernel adds a running thread's time at each tick, so sampling
   * faster sees no more. Each wake-up of the sampler costs some 15 µs of CPU on these VMs.
   */
  static final long SAMPLE_NANOS = 4_000_000;

  /**
   * How late a burst can be seen: twice the longest scheduler tick of a common kernel (100 Hz),
   * which covers a tick's lag in the run time and a sample's.
   */
  static final long SEEN_LATE_NANOS = 20_000_000;

  /**
   * Samples this close are one burst: the reclaim thread, preempted for a sample or so, has not
   * finished.
   */
  static final long GAP_NANOS = 8_000_000;

  /**
   * A burst shorter than this holds a core for less than the p99 goal's 2 ms: it queues no tail.
   */
  static final long STALL_NANOS = 1_000_000;

  /** Watches nothing: no thread to read, or the reading turned off. */
  static final MemoryReclaim NONE = new MemoryReclaim(List.of(), List.of(), System::nanoTime);

  /**
   * One burst of reclaim: when it was seen, on the sampler's {@link System#nanoTime} clock, and its
   * CPU time.
   */
  record Burst(long startNanos, long endNanos, long cpuNanos) {
    boolean isStall() {
      return cpuNanos >= STALL_NANOS;
    }
  }

  /** The stalls seen so far, in time order, and whether a time lies near one. */
  record Stalls(List<Burst> bursts) {
    /** Whether {@code nanos} lies within {@code marginNanos} of a stall, or inside one. */
    boolean near(long nanos, long marginNanos) {
      int low = 0;
      int high = bursts.size() - 1;
      while (low <= high) {
        int mid = (low + high) >>> 1;
        Burst b = bursts.get(mid);
        if (b.endNanos() + marginNanos < nanos) {
          low = mid + 1;
        } else if (b.startNanos() - marginNanos > nanos) {
          high = mid - 1;
        } else {
          return true;
        }
      }
      return false;
    }

    /** The stalls that began between {@code fromNanos} and {@code toNanos}. */
    List<Burst> between(long fromNanos, long toNanos) {
      return bursts.stream()
          .filter(b -> b.startNanos() >= fromNanos && b.startNanos() < toNanos)
          .toList();
    }
  }

  private final List<String> names;
  private final List<Path> schedstats;
  private final List<FileChannel> channels = new ArrayList<>();
  private final LongSupplier clock;
  private final ByteBuffer buffer = ByteBuffer.allocate(128);
  private final List<Burst> stalls = new ArrayList<>();

  /**
   * Each thread's run time at its last good read: what a failed read counts, so it adds no burst.
   */
  private final long[] lastRunNanos;

  private Thread sampler;
  private volatile boolean closed;
  private volatile long runNanos;
  private long lastSample;
  private boolean sampled;
  private Burst open;

  MemoryReclaim(List<String> names, List<Path> schedstats, LongSupplier clock) {
    this.names = List.copyOf(names);
    this.schedstats = List.copyOf(schedstats);
    this.lastRunNanos = new long[schedstats.size()];
    this.clock = clock;
  }

  /**
   * The reclaim threads under {@code proc} (a {@code /proc}), read on {@code clock}: every process
   * whose {@code comm} starts with {@code kdamond} or {@code kswapd}, its {@code schedstat}
   * readable. None (an empty watch) where there is no such thread or no {@code /proc}.
   */
  static MemoryReclaim find(Path proc, LongSupplier clock) {
    List<String> names = new ArrayList<>();
    List<Path> schedstats = new ArrayList<>();
    try (Stream<Path> entries = Files.list(proc)) {
      for (Path p :
          entries
              .filter(e -> e.getFileName().toString().chars().allMatch(Character::isDigit))
              .sorted()
              .toList()) {
        String comm = readOrEmpty(p.resolve("comm")).strip();
        if ((comm.startsWith("kdamond") || comm.startsWith("kswapd"))
            && Files.isReadable(p.resolve("schedstat"))) {
          names.add(comm);
          schedstats.add(p.resolve("schedstat"));
        }
      }
    } catch (IOException e) {
      return NONE;
    }
    return names.isEmpty() ? NONE : new MemoryReclaim(names, schedstats, clock);
  }

  private static String readOrEmpty(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return "";
    }
  }

  /** The threads watched, by name, e.g. {@code kdamond.0, kswapd0}; empty for none. */
  List<String> names() {
    return names;
  }

  boolean watches() {
    return !names.isEmpty();
  }

  /** Starts sampling on a daemon thread; does nothing when there is nothing to watch. */
  synchronized MemoryReclaim start() throws IOException {
    if (!watches() || sampler != null) {
      return this;
    }
    for (Path p : schedstats) {
      channels.add(FileChannel.open(p));
    }
    sample();
    sampler =
        new Thread(
            () -> {
              while (!closed) {
                LockSupport.parkNanos(SAMPLE_NANOS);
                sample();
              }
            },
            "memory-reclaim-sampler");
    sampler.setDaemon(true);
    sampler.start();
    return this;
  }

  /**
   * One sample: the threads' run time now against the last sample's. Called by one thread at a
   * time: the sampler's once started (and by {@link #start} before it runs). A thread whose file
   * cannot be read (it has exited, or the read came short) counts its last good reading. Before
   * {@link #start} it opens the files on each read.
   */
  void sample() {
    long now = clock.getAsLong();
    long run = 0;
    for (int i = 0; i < schedstats.size(); i++) {
      lastRunNanos[i] = readRunNanos(i, lastRunNanos[i]);
      run += lastRunNanos[i];
    }
    long grown = run - runNanos;
    if (sampled && grown > 0) {
      synchronized (this) {
        if (open != null && lastSample - open.endNanos() <= GAP_NANOS) {
          open = new Burst(open.startNanos(), now, open.cpuNanos() + grown);
        } else {
          closeOpen();
          open = new Burst(lastSample, now, grown);
        }
      }
    }
    runNanos = run;
    lastSample = now;
    sampled = true;
  }

  private long readRunNanos(int i, long last) {
    try {
      if (channels.isEmpty()) {
        return firstField(Files.readString(schedstats.get(i), StandardCharsets.US_ASCII));
      }
      // A positional read of the file held open: a tenth of what opening it each time costs.
      buffer.clear();
      channels.get(i).read(buffer, 0);
      return firstField(
          new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII));
    } catch (IOException | NumberFormatException e) {
      return last;
    }
  }

  /** {@code schedstat}'s first field: the thread's time on a CPU, ns. */
  static long firstField(String schedstat) {
    String text = schedstat.strip();
    int space = text.indexOf(' ');
    return Long.parseLong(space < 0 ? text : text.substring(0, space));
  }

  private void closeOpen() {
    if (open != null && open.isStall()) {
      stalls.add(open);
    }
    open = null;
  }

  /** The threads' summed run time at the last sample, ns. */
  long runNanos() {
    return runNanos;
  }

  /**
   * The stalls seen so far, once any that begins within {@code marginNanos} from now has been seen:
   * a stall that delays the last calls of a run can begin up to a margin after them, and is seen up
   * to {@link #SEEN_LATE_NANOS} after it begins. Returns at once when there is nothing to watch.
   */
  Stalls stallsWithin(long marginNanos) {
    if (watches()) {
      LockSupport.parkNanos(marginNanos + SEEN_LATE_NANOS);
    }
    return stalls();
  }

  /** The stalls seen so far, the one still running included. */
  synchronized Stalls stalls() {
    List<Burst> all = new ArrayList<>(stalls);
    if (open != null && open.isStall()) {
      all.add(open);
    }
    return new Stalls(List.copyOf(all));
  }

  /** The CPU time the sampler's thread has used so far, ns; 0 when it does not run. */
  long samplerCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Thread t = sampler;
    return t == null ? 0 : Math.max(0, threads.getThreadCpuTime(t.getId()));
  }

  @Override
  public void close() throws IOException {
    closed = true;
    Thread t = sampler;
    if (t != null) {
      LockSupport.unpark(t);
      try {
        t.join(TimeUnit.SECONDS.toMillis(1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (FileChannel ch : channels) {
      ch.close();
    }
  }
}
