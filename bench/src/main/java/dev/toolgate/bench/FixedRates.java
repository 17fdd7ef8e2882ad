package dev.toolgate.bench;

import static dev.toolgate.bench.LoadBench.cell;
import static dev.toolgate.bench.LoadBench.inTurns;
import static dev.toolgate.bench.LoadBench.ms;

import dev.toolgate.bench.LoadBench.SidecarCounters;
import dev.toolgate.bench.LoadBench.Target;
import dev.toolgate.e2e.support.LocalProcess;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The load benchmark's table of one fixed rate: each target's latency over direct's (pooled and
 * slice by slice), and what a process target spent on it (CPU, context switches, memory, the
 * sidecar's allocation, GC and JIT time from its metrics). Cost: a few {@code /proc} reads per
 * target before and after each one-second slice, and a metrics scrape as {@link ScrapeSchedule}
 * says, all outside the calls measured.
 */
final class FixedRates {

  private FixedRates() {}

  /**
   * Settles every target at {@code rate}, then takes its slices in turn and prints the table, and
   * what the kernel's memory reclaim did in those slices as {@code reclaim} watched it.
   */
  static void run(
      Map<Target, LoadGenerator> generators,
      int rate,
      LoadBenchOptions o,
      SlowCalls slowCalls,
      Goals.Readings goals,
      MemoryReclaim reclaim)
      throws Exception {
    System.out.printf(
        Locale.ROOT,
        "%nrate %d calls/s%n%-22s %8s %8s %8s %8s %8s %8s %9s %9s %10s %7s %8s %8s %10s %7s %7s %7s %9s %9s%n",
        rate,
        "target",
        "p50 ms",
        "p99 ms",
        "p99.9 ms",
        "+p50",
        "+p99",
        "+p99.9",
        "slice+p99",
        "quiet+p99",
        "cpu/1k/s",
        "sw/call",
        "rss MiB",
        "anon MiB",
        "KiB/call",
        "gc ms",
        "jit ms",
        "errors",
        "load gc ms",
        "waits/1k");
    slowCalls.phase("settle " + rate);
    inTurns(generators, o.settle(), (t, g) -> g.fixedRate(rate, 1, o.arrivals()));
    slowCalls.phase("rate " + rate);
    // One-second slices, round-robin over the targets: whatever else the machine does during the
    // run (its scheduler, other tenants) falls on every target alike instead of on whichever ran
    // then.
    Map<Target, Measured> measured = new LinkedHashMap<>();
    generators
        .keySet()
        .forEach(
            t ->
                measured.put(
                    t, new Measured(new ScrapeSchedule(o.scrapeInterval(), o.slicesAt(rate)))));
    long slicesStart = System.nanoTime();
    long reclaimStart = reclaim.runNanos();
    long samplerStart = reclaim.samplerCpuNanos();
    // Each target's slices added up, every call in them kept with its due time: what quiet+p99
    // sorts.
    Map<Target, LoadGenerator.Result> slices =
        inTurns(
            generators,
            o.slicesAt(rate),
            (t, g) -> {
              Measured m = measured.get(t);
              int slice = m.slices();
              // Scraped before the CPU is read and after it is read again: the scrape is the
              // benchmark's
              // work, not a call's (about 3 % of a sidecar's CPU in a slice at 50 calls/s, by a
              // profile).
              if (m.scrapes.dueBefore(System.nanoTime())) {
                m.scrapes.scraped(t.counters(), System.nanoTime());
              }
              double cpu = t.process() == null ? 0 : t.process().cpuSeconds();
              long gc = generatorGcMillis();
              long switches = t.process() == null ? 0 : t.process().contextSwitches();
              LoadGenerator.Result r = g.fixedRate(rate, 1, o.arrivals());
              long switched = t.process() == null ? 0 : t.process().contextSwitches() - switches;
              m.add(
                  r,
                  t.process() == null ? 0 : t.process().cpuSeconds() - cpu,
                  generatorGcMillis() - gc,
                  switched,
                  t.process());
              if (m.scrapes.dueAfter(slice)) {
                m.scrapes.scraped(t.counters(), System.nanoTime());
              }
              return r;
            });
    long slicesNanos = System.nanoTime() - slicesStart;
    long reclaimNanos = reclaim.runNanos() - reclaimStart;
    long samplerNanos = reclaim.samplerCpuNanos() - samplerStart;
    long marginNanos = o.reclaimMarginMs() * 1_000_000L;
    MemoryReclaim.Stalls stalls = reclaim.stallsWithin(marginNanos);
    Histogram direct = null;
    Measured directSlices = null;
    Quiet directQuiet = null;
    for (Map.Entry<Target, Measured> e : measured.entrySet()) {
      Target t = e.getKey();
      Measured m = e.getValue();
      double bytesPerScrape = t.bytesPerScrape();
      SidecarCounters grown = m.scrapes.growth();
      Histogram h = m.latencyMicros;
      if (direct == null) {
        direct = h;
        directSlices = m;
      }
      double cpuPerThousand = m.cpuSeconds / m.seconds / (rate / 1000.0);
      long calls = Math.max(1, m.latencyMicros.getTotalCount());
      boolean process = t.process() != null;
      boolean sidecar = t.metricsUrl() != null;
      double addedP50 = ms(h, 50) - ms(direct, 50);
      double addedP99 = ms(h, 99) - ms(direct, 99);
      double sliceDelta = medianSliceDelta(m.sliceP99, directSlices.sliceP99);
      goals.rate(
          rate, t.name(), addedP50, addedP99, sliceDelta, process ? m.residentMib : Double.NaN);
      Quiet quiet = Quiet.of(slices.get(t).calls(), stalls, marginNanos);
      directQuiet = directQuiet == null ? quiet : directQuiet;
      double quietDelta = ms(quiet.latencyMicros(), 99) - ms(directQuiet.latencyMicros(), 99);
      if (reclaim.watches()) {
        goals.quiet(rate, t.name(), quietDelta, quiet.leftOutShare(), o.reclaimMarginMs());
      }
      System.out.printf(
          Locale.ROOT,
          "%-22s %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %9.3f %9s %10s %7s %8s %8s %10s %7s %7s %7d %9d %9s%n",
          t.name(),
          ms(h, 50),
          ms(h, 99),
          ms(h, 99.9),
          addedP50,
          addedP99,
          ms(h, 99.9) - ms(direct, 99.9),
          sliceDelta,
          cell(reclaim.watches(), "%.3f", quietDelta),
          cell(process, "%.3f", cpuPerThousand),
          cell(process, "%.1f", (double) m.contextSwitches / calls),
          cell(process, "%.0f", m.residentMib),
          cell(process, "%.0f", m.anonymousMib),
          cell(
              sidecar,
              "%.1f",
              allocatedKibPerCall(
                  grown.allocatedBytes(), m.scrapes.scrapesWithin(), bytesPerScrape, calls)),
          cell(sidecar, "%.0f", grown.gcMillis()),
          cell(!Double.isNaN(grown.compileMillis()), "%.0f", grown.compileMillis()),
          m.failed,
          m.generatorGcMillis,
          cell(!Double.isNaN(grown.quotaWaits()), "%.2f", grown.quotaWaitsPerThousand(calls)));
    }
    System.out.println(
        reclaimLine(
            reclaim,
            o.reclaimMarginMs(),
            stalls.between(slicesStart, slicesStart + slicesNanos),
            reclaimNanos,
            samplerNanos,
            slicesNanos,
            directQuiet));
  }

  /**
   * What the kernel's memory reclaim did in a rate's slices: its stalls, its CPU, and what the
   * quiet+p99 column left out because of them; or why it was not watched.
   */
  static String reclaimLine(
      MemoryReclaim reclaim,
      int marginMs,
      List<MemoryReclaim.Burst> stalls,
      long reclaimNanos,
      long samplerNanos,
      long slicesNanos,
      Quiet directQuiet) {
    if (!reclaim.watches()) {
      return marginMs == 0
          ? "memory reclaim: not watched (--reclaim-margin 0); quiet+p99 not read"
          : "memory reclaim: no kdamond or kswapd thread readable in /proc; quiet+p99 not read";
    }
    double[] cpuMs = stalls.stream().mapToDouble(b -> b.cpuNanos() / 1e6).sorted().toArray();
    return String.format(
        Locale.ROOT,
        "memory reclaim (%s) in these slices: %d stalls (bursts of %d ms of CPU or more),"
            + " %s ms of CPU each at the median, %.1f %% of a core in all; quiet+p99 leaves out the calls due within %d ms"
            + " of a stall (%.1f %% of direct's, whose p99 without them is %.3f ms); the watch cost this process %.2f %% of a core",
        String.join(", ", reclaim.names()),
        cpuMs.length,
        MemoryReclaim.STALL_NANOS / 1_000_000,
        cpuMs.length == 0 ? "-" : String.format(Locale.ROOT, "%.0f", cpuMs[cpuMs.length / 2]),
        100.0 * reclaimNanos / Math.max(1, slicesNanos),
        marginMs,
        100 * directQuiet.leftOutShare(),
        ms(directQuiet.latencyMicros(), 99),
        100.0 * samplerNanos / Math.max(1, slicesNanos));
  }

  /**
   * A target's calls that were not due near a reclaim stall: their latencies, and how many of all
   * were left out.
   */
  record Quiet(Histogram latencyMicros, long leftOut, long calls) {
    /**
     * The calls of {@code calls} due further than {@code marginNanos} from every stall; failed ones
     * count in neither.
     */
    static Quiet of(LoadGenerator.Calls calls, MemoryReclaim.Stalls stalls, long marginNanos) {
      Histogram kept = new Histogram(60_000_000L, 3);
      long leftOut = 0;
      long counted = 0;
      for (int i = 0; i < calls.count(); i++) {
        long micros = calls.latencyMicros()[i];
        if (micros == LoadGenerator.Calls.FAILED) {
          continue;
        }
        counted++;
        if (stalls.near(calls.dueNanos()[i], marginNanos)) {
          leftOut++;
        } else {
          kept.recordValue(Math.max(1, micros));
        }
      }
      return new Quiet(kept, leftOut, counted);
    }

    double leftOutShare() {
      return calls == 0 ? Double.NaN : (double) leftOut / calls;
    }
  }

  /**
   * A target's slices of one rate, added up; resident memory is the largest seen; its sidecar's
   * counters from the scrapes its schedule took.
   */
  private static final class Measured {
    final Histogram latencyMicros = new Histogram(60_000_000L, 3);

    /** Each slice's own p99, ms, in slice order: paired with direct's slice by slice. */
    final List<Double> sliceP99 = new ArrayList<>();

    long failed;
    double seconds;
    double cpuSeconds;
    long generatorGcMillis;
    double residentMib;
    double anonymousMib;
    long contextSwitches;
    final ScrapeSchedule scrapes;

    Measured(ScrapeSchedule scrapes) {
      this.scrapes = scrapes;
    }

    int slices() {
      return sliceP99.size();
    }

    void add(
        LoadGenerator.Result r, double cpu, long generatorGc, long switches, LocalProcess process) {
      contextSwitches += switches;
      latencyMicros.add(r.latencyMicros());
      sliceP99.add(ms(r.latencyMicros(), 99));
      failed += r.failed();
      seconds += r.seconds();
      cpuSeconds += cpu;
      generatorGcMillis += generatorGc;
      if (process != null) {
        residentMib = Math.max(residentMib, process.residentMib());
        anonymousMib = Math.max(anonymousMib, process.anonymousMib());
      }
    }
  }

  /**
   * KiB allocated per call over a target's slices, without the benchmark's own scrapes: between the
   * counter's first reading and its last lie {@code scrapes} scrapes' work ({@link
   * ScrapeSchedule#scrapesWithin}; one scrape is some 400 KiB, what 16 calls allocate).
   */
  static double allocatedKibPerCall(
      double allocatedBytes, int scrapes, double bytesPerScrape, long calls) {
    return Math.max(0, allocatedBytes - scrapes * bytesPerScrape) / 1024.0 / Math.max(1, calls);
  }

  /**
   * The median over slices of a target's p99 minus direct's in the same round of slices: a stall of
   * the machine spoils the slices it falls on, not the whole figure, as it does the pooled p99.
   */
  static double medianSliceDelta(List<Double> target, List<Double> baseline) {
    double[] deltas = new double[Math.min(target.size(), baseline.size())];
    for (int i = 0; i < deltas.length; i++) {
      deltas[i] = target.get(i) - baseline.get(i);
    }
    Arrays.sort(deltas);
    int n = deltas.length;
    return n == 0
        ? Double.NaN
        : n % 2 == 1 ? deltas[n / 2] : (deltas[n / 2 - 1] + deltas[n / 2]) / 2;
  }

  /**
   * GC time of this JVM (the load generator): its pauses delay calls and show in every target's
   * tail.
   */
  private static long generatorGcMillis() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(GarbageCollectorMXBean::getCollectionTime)
        .sum();
  }
}
