package dev.toolgate.bench;

import static dev.toolgate.bench.LoadBench.CONTROL;
import static dev.toolgate.bench.LoadBench.FULL_POLICY;
import static dev.toolgate.bench.LoadBench.NGINX;
import static dev.toolgate.bench.LoadBench.PASS_THROUGH;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The performance goals (docs/performance.md), judged on one run's readings: each one met, missed
 * or not measured, with the reading it was judged on. The load benchmark hands the readings over as
 * it prints them; only this checkout's rows count (a compared build's names carry a suffix). A goal
 * met in one run is not a goal met reliably: docs/performance.md states where each goal stands.
 *
 * <p>Three goals are judged strictly where they have two readings: the p99 on the pooled and the
 * per-slice median, pass-through's ratio to nginx at the fixed rate and one call at a time, the
 * resident set as read at the end of each slice and at its peak since start (a JIT compile's arenas
 * come and go between two slices' readings). A ratio to an nginx delta at or below zero is not a
 * reading (the run did not resolve nginx's cost).
 *
 * <p>Where the run loaded direct twice ({@code control}), the p99 goal is judged against the
 * machine's own noise: a second copy of direct differs from the first by what the machine alone
 * puts between two identical targets (the larger of its pooled and per-slice differences: one
 * sample of the noise, which either can understate), and a reading closer to the goal than that, on
 * either side, is not resolved. A machine that stalls for tens of milliseconds (direct's own p99
 * far above its p50) reads the goal so rather than as met or missed by chance.
 */
final class Goals {

  /** The rate the latency goals are set at. */
  static final int RATE = 1000;

  static final double ADDED_P50_MS = 0.5;
  static final double ADDED_P99_MS = 2.0;
  static final double PASS_THROUGH_TIMES_NGINX = 2.0;
  static final double SATURATION_OF_NGINX = 0.5;
  static final double RESIDENT_MIB = 128;
  static final long READY_MS = 2000;

  /** A stolen share of the cores' time worth naming beside the saturation ratio. */
  static final double STOLEN_NAMED = 0.01;

  enum Status {
    MET("met"),
    MISSED("MISSED"),
    NOT_RESOLVED("not resolved"),
    NOT_MEASURED("not measured");

    final String text;

    Status(String text) {
      this.text = text;
    }
  }

  /**
   * A target's saturation turns: its calls a second, the machine's µs per call, the share stolen;
   * NaN where unread.
   */
  record SaturationTurns(double callsPerSecond, double machineMicrosPerCall, double stolen) {
    static final SaturationTurns UNREAD = new SaturationTurns(Double.NaN, Double.NaN, Double.NaN);

    /** These turns' calls a second over {@code other}'s: the saturation goal's ratio. */
    double ratioTo(SaturationTurns other) {
      return callsPerSecond / other.callsPerSecond;
    }
  }

  /** One goal's verdict and what it was judged on (or why it was not). */
  record Verdict(String goal, Status status, String reading) {}

  /** What a run measured, as it went; NaN (or -1 for a time) where it did not. */
  static final class Readings {
    private double fullAddedP50 = Double.NaN;
    private double fullAddedP99 = Double.NaN;
    private double fullSliceAddedP99 = Double.NaN;
    private double controlAddedP99 = Double.NaN;
    private double controlSliceAddedP99 = Double.NaN;
    private double nginxAddedP99 = Double.NaN;
    private double nginxSliceAddedP99 = Double.NaN;
    private double fullQuietAddedP99 = Double.NaN;
    private double controlQuietAddedP99 = Double.NaN;
    private double fullQuietLeftOut = Double.NaN;
    private int reclaimMarginMs;
    private double passThroughAddedP50 = Double.NaN;
    private double nginxAddedP50 = Double.NaN;
    private double passThroughOneAtATime = Double.NaN;
    private double nginxOneAtATime = Double.NaN;
    private SaturationTurns fullSaturation = SaturationTurns.UNREAD;
    private SaturationTurns nginxSaturation = SaturationTurns.UNREAD;
    private double residentMib = Double.NaN;
    private double peakResidentMib = Double.NaN;
    private long readyMillis = -1;

    /**
     * A target's row at a fixed rate: deltas over direct in ms, its resident set in MiB (NaN if
     * none).
     */
    void rate(
        int rate,
        String target,
        double addedP50,
        double addedP99,
        double sliceAddedP99,
        double residentMib) {
      if (isSidecar(target)) {
        this.residentMib = largest(this.residentMib, residentMib);
      }
      if (rate != RATE) {
        return;
      }
      switch (target) {
        case FULL_POLICY -> {
          fullAddedP50 = addedP50;
          fullAddedP99 = addedP99;
          fullSliceAddedP99 = sliceAddedP99;
        }
        case CONTROL -> {
          controlAddedP99 = addedP99;
          controlSliceAddedP99 = sliceAddedP99;
        }
        case PASS_THROUGH -> passThroughAddedP50 = addedP50;
        case NGINX -> {
          nginxAddedP50 = addedP50;
          nginxAddedP99 = addedP99;
          nginxSliceAddedP99 = sliceAddedP99;
        }
        default -> {}
      }
    }

    /**
     * A target's p99 over direct's at a fixed rate without the calls due within {@code marginMs} of
     * a stall of the kernel's memory reclaim, in ms, and the share of its calls so left out.
     */
    void quiet(int rate, String target, double addedP99, double leftOutShare, int marginMs) {
      if (rate != RATE) {
        return;
      }
      reclaimMarginMs = marginMs;
      switch (target) {
        case FULL_POLICY -> {
          fullQuietAddedP99 = addedP99;
          fullQuietLeftOut = leftOutShare;
        }
        case CONTROL -> controlQuietAddedP99 = addedP99;
        default -> {}
      }
    }

    /** A target's p50 over direct's, one call at a time, in ms. */
    void oneAtATime(String target, double addedP50) {
      switch (target) {
        case PASS_THROUGH -> passThroughOneAtATime = addedP50;
        case NGINX -> nginxOneAtATime = addedP50;
        default -> {}
      }
    }

    /**
     * A target's calls per second at saturation, the machine's busy CPU time per call in its turns,
     * in µs, and the share of the cores' time stolen by the hypervisor in them (NaN where unknown):
     * on shared cores the first follows the second, and falls with the third.
     */
    void saturation(
        String target, double callsPerSecond, double machineMicrosPerCall, double stolen) {
      SaturationTurns turns = new SaturationTurns(callsPerSecond, machineMicrosPerCall, stolen);
      switch (target) {
        case FULL_POLICY -> fullSaturation = turns;
        case NGINX -> nginxSaturation = turns;
        default -> {}
      }
    }

    /**
     * The most a target has held resident since its start (warm-up and saturation included), MiB;
     * NaN if it is not a process of its own.
     */
    void peak(String target, double mib) {
      if (isSidecar(target)) {
        peakResidentMib = largest(peakResidentMib, mib);
      }
    }

    /** This checkout's sidecar targets, whose memory the goal is judged on. */
    private static boolean isSidecar(String target) {
      return target.equals(FULL_POLICY) || target.equals(PASS_THROUGH);
    }

    /** The larger of two readings, either of which may be NaN (none yet, or none to read). */
    private static double largest(double sofar, double reading) {
      return Double.isNaN(reading)
          ? sofar
          : Double.isNaN(sofar) ? reading : Math.max(sofar, reading);
    }

    /** This checkout's median time to ready with its class-data archive, as the image starts. */
    void ready(long medianMillis) {
      readyMillis = medianMillis;
    }
  }

  private Goals() {}

  /**
   * The ratio, both rates, what a call cost the machine through each where both were read, and the
   * cores' time the hypervisor took in either's turns where it took at least {@value #STOLEN_NAMED}
   * of it: a ratio read on cores stolen in one target's turns more than in the other's is off by
   * that much.
   */
  private static String saturation(Readings r) {
    SaturationTurns full = r.fullSaturation;
    SaturationTurns nginx = r.nginxSaturation;
    String machine =
        Double.isNaN(full.machineMicrosPerCall()) || Double.isNaN(nginx.machineMicrosPerCall())
            ? ""
            : format(
                "; a call cost the machine %.0f us against nginx's %.0f",
                full.machineMicrosPerCall(), nginx.machineMicrosPerCall());
    String stolen =
        Double.isNaN(full.stolen())
                || Double.isNaN(nginx.stolen())
                || Math.max(full.stolen(), nginx.stolen()) < STOLEN_NAMED
            ? ""
            : format(
                "; the hypervisor took %.0f%% of the cores' time in its turns, %.0f%% in nginx's",
                100 * full.stolen(), 100 * nginx.stolen());
    return format(
        "%.2f (%.0f against %.0f calls/s%s%s)",
        full.ratioTo(nginx), full.callsPerSecond(), nginx.callsPerSecond(), machine, stolen);
  }

  static List<Verdict> judge(Readings r) {
    List<Verdict> verdicts = new ArrayList<>();
    String atRate = "no " + FULL_POLICY + " row at " + RATE + " calls/s in this run";
    verdicts.add(
        Double.isNaN(r.fullAddedP50)
            ? new Verdict(goalP50(), Status.NOT_MEASURED, atRate)
            : new Verdict(
                goalP50(),
                status(r.fullAddedP50 <= ADDED_P50_MS),
                format("%+.3f ms", r.fullAddedP50)));
    verdicts.add(
        Double.isNaN(r.fullAddedP99)
            ? new Verdict(goalP99(), Status.NOT_MEASURED, atRate)
            : p99(r));
    verdicts.add(passThrough(r));
    String goal = format("saturation >= %.1f of nginx's (full policy)", SATURATION_OF_NGINX);
    verdicts.add(
        Double.isNaN(r.fullSaturation.callsPerSecond()) || !(r.nginxSaturation.callsPerSecond() > 0)
            ? new Verdict(
                goal,
                Status.NOT_MEASURED,
                "no " + FULL_POLICY + " or no " + NGINX + " at saturation")
            : new Verdict(
                goal,
                status(r.fullSaturation.ratioTo(r.nginxSaturation) >= SATURATION_OF_NGINX),
                saturation(r)));
    goal = format("resident <= %.0f MiB under load", RESIDENT_MIB);
    verdicts.add(
        Double.isNaN(r.residentMib)
            ? new Verdict(goal, Status.NOT_MEASURED, "no sidecar loaded at a fixed rate")
            : new Verdict(
                goal,
                status(r.residentMib <= RESIDENT_MIB && !(r.peakResidentMib > RESIDENT_MIB)),
                // One decimal: a whole number would print a miss by a fraction as "128 MiB".
                format(
                        "%.1f MiB, the largest of pass-through and the full policy at any rate",
                        r.residentMib)
                    + (Double.isNaN(r.peakResidentMib)
                        ? ""
                        : format(
                            "; peak %.1f MiB since start, warm-up and saturation included",
                            r.peakResidentMib))));
    goal = format("ready <= %.0f s (embedded member)", READY_MS / 1000.0);
    verdicts.add(
        r.readyMillis < 0
            ? new Verdict(goal, Status.NOT_MEASURED, "no start timed")
            : new Verdict(
                goal,
                status(r.readyMillis <= READY_MS),
                format("%.2f s, median with the class-data archive", r.readyMillis / 1000.0)));
    verdicts.add(
        new Verdict(
            "admission <= 5 us (JMH)",
            Status.NOT_MEASURED,
            "a JMH benchmark, not this run: AdmissionBench (docs/performance.md)"));
    return verdicts;
  }

  /**
   * The full policy's p99 over direct, pooled and per-slice median, set against the machine's
   * noise: the larger absolute value of the control's two readings, zero without a control row.
   * Missed if either reading is over the goal by more than the noise, met if both are under it by
   * more than that, else not resolved (which a zero noise never leaves). nginx's two readings
   * follow, where the run has them: what a plain proxy's hop added to the tail on this machine,
   * beside the sidecar's; then the full policy's and the control's p99 without the calls due near a
   * stall of the kernel's memory reclaim, where the run watched it: what the tail is without the
   * machine's own stalls. Neither changes the verdict, which is judged on every call.
   */
  private static Verdict p99(Readings r) {
    String reading =
        format("%+.3f ms pooled, %+.3f per-slice median", r.fullAddedP99, r.fullSliceAddedP99);
    double noise = 0;
    if (!Double.isNaN(r.controlAddedP99)) {
      noise = Readings.largest(Math.abs(r.controlAddedP99), Math.abs(r.controlSliceAddedP99));
      reading +=
          format(
              "; direct against itself %+.3f / %+.3f", r.controlAddedP99, r.controlSliceAddedP99);
    }
    if (!Double.isNaN(r.nginxAddedP99)) {
      reading += format("; nginx %+.3f / %+.3f", r.nginxAddedP99, r.nginxSliceAddedP99);
    }
    if (!Double.isNaN(r.fullQuietAddedP99)) {
      reading +=
          format(
                  "; without the calls due within %d ms of a memory-reclaim stall (%.1f %%) %+.3f",
                  r.reclaimMarginMs, 100 * r.fullQuietLeftOut, r.fullQuietAddedP99)
              + (Double.isNaN(r.controlQuietAddedP99)
                  ? ""
                  : format(", direct against itself %+.3f", r.controlQuietAddedP99));
    }
    boolean missed =
        r.fullAddedP99 > ADDED_P99_MS + noise || r.fullSliceAddedP99 > ADDED_P99_MS + noise;
    boolean met =
        r.fullAddedP99 <= ADDED_P99_MS - noise && !(r.fullSliceAddedP99 > ADDED_P99_MS - noise);
    return new Verdict(
        goalP99(),
        missed ? Status.MISSED : met ? Status.MET : Status.NOT_RESOLVED,
        missed || met ? reading : reading + "; within the machine's noise of the goal");
  }

  /** Pass-through's p50 over direct and nginx's, both read where {@code where} says. */
  private record Pair(String where, double passThrough, double nginx) {}

  /**
   * Pass-through's p50 over direct as a multiple of nginx's, at the fixed rate and one call at a
   * time.
   */
  private static Verdict passThrough(Readings r) {
    String goal = format("pass-through's added p50 <= %.0fx nginx's", PASS_THROUGH_TIMES_NGINX);
    List<String> readings = new ArrayList<>();
    boolean resolved = false;
    boolean missed = false;
    for (Pair p :
        List.of(
            new Pair("at " + RATE + " calls/s", r.passThroughAddedP50, r.nginxAddedP50),
            new Pair("one call at a time", r.passThroughOneAtATime, r.nginxOneAtATime))) {
      if (Double.isNaN(p.passThrough()) || Double.isNaN(p.nginx())) {
        continue;
      }
      if (p.nginx() <= 0) {
        readings.add(format("%s unresolved (nginx %+.3f ms)", p.where(), p.nginx()));
        continue;
      }
      double times = p.passThrough() / p.nginx();
      resolved = true;
      missed |= times > PASS_THROUGH_TIMES_NGINX;
      readings.add(
          format(
              "%.2fx %s (%+.3f against %+.3f ms)", times, p.where(), p.passThrough(), p.nginx()));
    }
    if (readings.isEmpty()) {
      return new Verdict(
          goal, Status.NOT_MEASURED, "no " + PASS_THROUGH + " or no " + NGINX + " in this run");
    }
    return new Verdict(
        goal, resolved ? status(!missed) : Status.NOT_MEASURED, String.join("; ", readings));
  }

  /** The verdicts as the benchmark prints them, after its other tables. */
  static String table(List<Verdict> verdicts) {
    StringBuilder out =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%ngoals (full policy at %d calls/s unless said; one run's verdict is one reading)%n%-46s %-13s %s%n",
                RATE,
                "goal",
                "verdict",
                "reading"));
    for (Verdict v : verdicts) {
      out.append(
          String.format(Locale.ROOT, "%-46s %-13s %s%n", v.goal(), v.status().text, v.reading()));
    }
    return out.toString();
  }

  private static String goalP50() {
    return format("added p50 <= %.1f ms", ADDED_P50_MS);
  }

  private static String goalP99() {
    return format("added p99 <= %.0f ms", ADDED_P99_MS);
  }

  private static Status status(boolean met) {
    return met ? Status.MET : Status.MISSED;
  }

  private static String format(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
