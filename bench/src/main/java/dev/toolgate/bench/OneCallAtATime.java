package dev.toolgate.bench;

import static dev.toolgate.bench.LoadBench.NGINX;
import static dev.toolgate.bench.LoadBench.cell;
import static dev.toolgate.bench.LoadBench.inTurns;
import static dev.toolgate.bench.LoadBench.ms;

import dev.toolgate.bench.LoadBench.Target;
import dev.toolgate.e2e.support.LocalProcess;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The load benchmark's one-call-at-a-time table: each target in one-second turns, closed loop with
 * one call in flight, its added p50 against nginx's, and its CPU per call split by thread (all, the
 * busiest, the JIT compiler threads) from {@code /proc}. Cost: six reads of a target's {@code
 * /proc} entries per turn, outside the calls measured.
 */
final class OneCallAtATime {

  private OneCallAtATime() {}

  /**
   * Each call sent as soon as the previous one is answered, as an agent calls its tools one after
   * the other: no call waits behind another, so what a proxy adds is its own work and its two
   * wake-ups. At a fixed rate on two cores the calls also queue behind each other's work, and
   * nginx's delta can fall below what a run resolves (its {@code direct (control)} row).
   */
  static void run(
      Map<Target, LoadGenerator> generators,
      int settle,
      int seconds,
      SlowCalls slowCalls,
      Goals.Readings goals)
      throws Exception {
    System.out.printf(
        Locale.ROOT,
        "%none call at a time (closed loop: each call sent when the previous one is answered,"
            + " %d one-second turns per target taken in turn; cpu: the proxy's CPU time per call, all its threads;"
            + " top: its busiest thread's part of it, a warm Vert.x proxy's event loop; jit: its JIT compiler threads')%n"
            + "%-22s %10s %8s %8s %8s %8s %13s %12s %13s %12s%n",
        seconds,
        "target",
        "calls/s",
        "p50 ms",
        "p99 ms",
        "+p50",
        "+p99",
        "+p50 vs nginx",
        "cpu µs/call",
        "top µs/call",
        "jit µs/call");
    slowCalls.phase("settle one at a time");
    inTurns(generators, settle, (t, g) -> g.saturate(1, 1));
    slowCalls.phase("one at a time");
    Map<Target, Double> cpuSeconds = new HashMap<>();
    Map<Target, Long> compilerTicks = new HashMap<>();
    Map<Target, Long> busiestTicks = new HashMap<>();
    Map<Target, LoadGenerator.Result> results =
        inTurns(
            generators,
            seconds,
            (t, g) -> {
              List<Long> pids = t.process() == null ? List.of() : t.process().pids();
              double before = t.process() == null ? 0 : t.process().cpuSeconds();
              long compiledBefore = compilerTicks(pids);
              Map<Long, Long> threadsBefore = CpuShares.threadTicks(pids);
              LoadGenerator.Result r = g.saturate(1, 1);
              if (t.process() != null) {
                cpuSeconds.merge(t, t.process().cpuSeconds() - before, Double::sum);
                busiestTicks.merge(
                    t, CpuShares.busiest(threadsBefore, CpuShares.threadTicks(pids)), Long::sum);
                compilerTicks.merge(t, compilerTicks(pids) - compiledBefore, Long::sum);
              }
              return r;
            });
    Histogram direct = results.values().iterator().next().latencyMicros();
    double nginxDelta =
        results.entrySet().stream()
            .filter(e -> e.getKey().name().equals(NGINX))
            .mapToDouble(e -> ms(e.getValue().latencyMicros(), 50) - ms(direct, 50))
            .findFirst()
            .orElse(Double.NaN);
    for (Map.Entry<Target, LoadGenerator.Result> e : results.entrySet()) {
      Histogram h = e.getValue().latencyMicros();
      double delta = ms(h, 50) - ms(direct, 50);
      goals.oneAtATime(e.getKey().name(), delta);
      double cpu = cpuSeconds.getOrDefault(e.getKey(), Double.NaN);
      double top = seconds(busiestTicks.get(e.getKey()));
      double compiling = seconds(compilerTicks.get(e.getKey()));
      System.out.printf(
          Locale.ROOT,
          "%-22s %10.0f %8.3f %8.3f %8.3f %8.3f %13s %12s %13s %12s%n",
          e.getKey().name(),
          e.getValue().throughput(),
          ms(h, 50),
          ms(h, 99),
          delta,
          ms(h, 99) - ms(direct, 99),
          h == direct ? "-" : timesNginx(delta, nginxDelta),
          cell(!Double.isNaN(cpu), "%.0f", cpuMicrosPerCall(cpu, h.getTotalCount())),
          cell(!Double.isNaN(top), "%.0f", cpuMicrosPerCall(top, h.getTotalCount())),
          cell(!Double.isNaN(compiling), "%.0f", cpuMicrosPerCall(compiling, h.getTotalCount())));
    }
  }

  /**
   * CPU ticks so far of the JIT compiler threads of a target's processes (0 for none, or no JVM
   * among them).
   */
  private static long compilerTicks(List<Long> pids) {
    return pids.stream().mapToLong(LocalProcess::compilerTicks).sum();
  }

  /** Ticks in seconds; NaN for a target that has no reading. */
  private static double seconds(Long ticks) {
    return ticks == null ? Double.NaN : ticks / LocalProcess.TICKS_PER_SECOND;
  }

  /** A proxy's CPU time over its turns, in µs per call answered in them. */
  static double cpuMicrosPerCall(double cpuSeconds, long calls) {
    return cpuSeconds * 1e6 / Math.max(1, calls);
  }

  /**
   * A target's added latency as a multiple of nginx's, or "-" where nginx's is not above zero (or
   * nginx was not loaded): a ratio to a delta the run does not resolve says nothing.
   */
  static String timesNginx(double delta, double nginxDelta) {
    return Double.isNaN(nginxDelta) || nginxDelta <= 0
        ? "-"
        : String.format(Locale.ROOT, "%.2f", delta / nginxDelta);
  }
}
