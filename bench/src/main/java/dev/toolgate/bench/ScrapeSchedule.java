package dev.toolgate.bench;

import dev.toolgate.bench.LoadBench.SidecarCounters;
import java.time.Duration;

/**
 * When a rate's slices scrape one sidecar's {@code /metrics}, and what those scrapes read over
 * them.
 *
 * <p>A scrape is taken before the target's first slice, after its last, and before any slice in
 * between once {@code interval} has passed since the one before: the pace at which the chart's
 * PodMonitor has Prometheus scrape a sidecar. Scraped around each of sixty one-second slices
 * instead, a sidecar compiled the scrape's code while its slices ran (docs/performance.md). A zero
 * interval scrapes before and after every slice. Scrapes run between slices, never during one; the
 * counters' growth is read from the first scrape to the last, so it spans the sidecar's idle time
 * between its slices too. Cost: O(1) a slice.
 */
final class ScrapeSchedule {

  private final long intervalNanos;
  private final int slices;
  private SidecarCounters first;
  private SidecarCounters last;
  private long lastNanos;
  private int taken;

  /**
   * A schedule for {@code slices} slices of one target, scraped at most every {@code interval}
   * between them.
   */
  ScrapeSchedule(Duration interval, int slices) {
    if (interval.isNegative()) {
      throw new IllegalArgumentException(
          "the interval between scrapes must not be negative, was " + interval);
    }
    if (slices < 1) {
      throw new IllegalArgumentException("a schedule needs at least one slice, was " + slices);
    }
    this.intervalNanos = interval.toNanos();
    this.slices = slices;
  }

  /** How a run with this {@code interval} scrapes a sidecar, for the run's header line. */
  static String describe(Duration interval) {
    return interval.isZero()
        ? "before and after each of its slices"
        : "before its first slice of a rate, after its last and between two at most every "
            + interval.toSeconds()
            + " s";
  }

  /** Whether to scrape before the next slice, at {@code nowNanos}. */
  boolean dueBefore(long nowNanos) {
    return taken == 0 || intervalNanos == 0 || nowNanos - lastNanos >= intervalNanos;
  }

  /**
   * Whether to scrape after slice {@code slice} (from 0): after the last, or after each with a zero
   * interval.
   */
  boolean dueAfter(int slice) {
    return slice == slices - 1 || intervalNanos == 0;
  }

  /** Records a scrape's counters, taken at {@code nowNanos}. */
  void scraped(SidecarCounters counters, long nowNanos) {
    if (taken == 0) {
      first = counters;
    }
    last = counters;
    lastNanos = nowNanos;
    taken++;
  }

  /** The scrapes taken so far. */
  int taken() {
    return taken;
  }

  /** How the counters grew from the first scrape to the last; nothing before two scrapes. */
  SidecarCounters growth() {
    return taken < 2 ? SidecarCounters.NONE : last.since(first);
  }

  /**
   * The scrapes' own work that lies between the first reading and the last, in whole scrapes: the
   * end of the first and the start of the last make one, and each scrape between them one more.
   */
  int scrapesWithin() {
    return Math.max(0, taken - 1);
  }
}
