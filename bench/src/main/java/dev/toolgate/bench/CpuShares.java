package dev.toolgate.bench;

import dev.toolgate.e2e.support.LocalProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What bounds a target at saturation on this machine, over its turns: its busiest thread's CPU as a
 * share of one core (a proxy's event loop: near 1.0 is a one-thread ceiling), the share of all the
 * machine's cores that was busy (near 1.0 with the thread below it: the calls wait for a core, and
 * only less CPU per call raises the throughput), and per call the CPU of the target's process and
 * of the whole machine (every process of the run and the kernel: what the calls a second of a
 * target on shared cores follow), and the share of the cores' time a hypervisor took for another
 * guest (stolen: counted neither busy nor idle; a turn it falls in reads slower). Read from {@code
 * /proc}: a thread's {@code utime + stime} in clock ticks, and the first line of {@code
 * /proc/stat}. Where there is no {@code /proc}, all read as unknown. Cost: one read of each of the
 * target's threads per turn.
 */
final class CpuShares {

  /**
   * The machine's CPU time so far, in ticks: busy (neither idle nor waiting for I/O, nor stolen),
   * stolen (the hypervisor ran another guest while this one's cores had work), and in all.
   */
  record Machine(long busy, long stolen, long total) {
    static final Machine UNKNOWN = new Machine(0, 0, 0);

    /**
     * From {@code /proc/stat}'s first line: {@code cpu user nice system idle iowait irq softirq
     * steal …}.
     */
    static Machine parse(String cpuLine) {
      String[] f = cpuLine.trim().split("\\s+");
      if (f.length < 9 || !f[0].equals("cpu")) {
        throw new IllegalArgumentException("not /proc/stat's cpu line: '" + cpuLine + "'");
      }
      long total = 0;
      for (int i = 1; i <= 8; i++) {
        total += Long.parseLong(f[i]);
      }
      long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
      long stolen = Long.parseLong(f[8]);
      return new Machine(total - idle - stolen, stolen, total);
    }

    static Machine now() {
      try (Stream<String> lines = Files.lines(Path.of("/proc/stat"))) {
        return lines.findFirst().map(Machine::parse).orElse(UNKNOWN);
      } catch (IOException | RuntimeException e) {
        return UNKNOWN;
      }
    }

    Machine minus(Machine earlier) {
      return new Machine(busy - earlier.busy, stolen - earlier.stolen, total - earlier.total);
    }

    Machine plus(Machine other) {
      return new Machine(busy + other.busy, stolen + other.stolen, total + other.total);
    }
  }

  /** One turn under way: the readings it started from. */
  record Turn(Map<Long, Long> threads, Machine machine, long startNanos) {}

  private long busiestTicks;
  private long processTicks;

  /**
   * Whether a turn found the target's threads: where none could be read, its CPU per call is
   * unknown, not zero.
   */
  private boolean threadsRead;

  private double seconds;
  private Machine machine = Machine.UNKNOWN;

  /** Starts a turn of the process(es) {@code pids} (none: the machine only). */
  static Turn start(List<Long> pids) {
    return new Turn(threadTicks(pids), Machine.now(), System.nanoTime());
  }

  /** Ends {@code turn} and adds it. */
  void end(Turn turn, List<Long> pids) {
    long nanos = System.nanoTime() - turn.startNanos();
    Map<Long, Long> after = threadTicks(pids);
    threadsRead |= !after.isEmpty();
    add(
        busiest(turn.threads(), after),
        ran(turn.threads(), after),
        nanos / 1e9,
        Machine.now().minus(turn.machine()));
  }

  void add(long busiestThreadTicks, long processTicks, double turnSeconds, Machine turnMachine) {
    busiestTicks += busiestThreadTicks;
    this.processTicks += processTicks;
    seconds += turnSeconds;
    machine = machine.plus(turnMachine);
  }

  /** The busiest thread's CPU over the turns, in cores; NaN before any turn. */
  double busiestThread() {
    return seconds == 0 ? Double.NaN : busiestTicks / LocalProcess.TICKS_PER_SECOND / seconds;
  }

  /** The busy share of the machine's cores over the turns; NaN where unknown. */
  double machineBusy() {
    return machine.total() <= 0 ? Double.NaN : (double) machine.busy() / machine.total();
  }

  /**
   * The share of the machine's cores' time the hypervisor gave another guest over the turns; NaN
   * where unknown. Work that waits for it is slower in that turn only: a target measured while the
   * cores are stolen reads fewer calls a second than it would alone.
   */
  double machineStolen() {
    return machine.total() <= 0 ? Double.NaN : (double) machine.stolen() / machine.total();
  }

  /**
   * The target's CPU time per call over the turns, all its threads, in µs; NaN where unknown or
   * without calls.
   */
  double processMicrosPerCall(long calls) {
    return threadsRead || processTicks > 0 ? microsPerCall(processTicks, calls) : Double.NaN;
  }

  /**
   * The machine's busy CPU time per call over the turns, all its cores, stolen time left out, in
   * µs; NaN where unknown.
   */
  double machineMicrosPerCall(long calls) {
    return machine.total() > 0 ? microsPerCall(machine.busy(), calls) : Double.NaN;
  }

  private static double microsPerCall(long ticks, long calls) {
    return calls <= 0 ? Double.NaN : ticks / LocalProcess.TICKS_PER_SECOND * 1e6 / calls;
  }

  /**
   * The most ticks one thread ran between two readings; a thread started in between counts from 0.
   */
  static long busiest(Map<Long, Long> before, Map<Long, Long> after) {
    long most = 0;
    for (Map.Entry<Long, Long> e : after.entrySet()) {
      most = Math.max(most, e.getValue() - before.getOrDefault(e.getKey(), 0L));
    }
    return most;
  }

  /**
   * The ticks all the threads ran between two readings; a thread started in between counts from 0.
   */
  static long ran(Map<Long, Long> before, Map<Long, Long> after) {
    long sum = 0;
    for (Map.Entry<Long, Long> e : after.entrySet()) {
      sum += e.getValue() - before.getOrDefault(e.getKey(), 0L);
    }
    return sum;
  }

  /** Ticks (user + system) of every thread of the processes, by thread id; empty without /proc. */
  static Map<Long, Long> threadTicks(List<Long> pids) {
    Map<Long, Long> ticks = new HashMap<>();
    pids.forEach(pid -> ticks.putAll(LocalProcess.threadTicks(pid)));
    return ticks;
  }
}
