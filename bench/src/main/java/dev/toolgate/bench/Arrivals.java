package dev.toolgate.bench;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * When the calls of a fixed-rate slice are due, as offsets from its start. {@link #UNIFORM}, the
 * default, spaces them by exactly 1/rate; {@link #POISSON} by exponential gaps of mean 1/rate, as
 * calls from independent agents arrive, so that some come close together and queue. Either way the
 * generator sends each call at its due time, to its event loop timer's precision. Building the
 * schedule takes O(calls) time and one array; a seed makes a Poisson schedule repeatable, so that
 * every target's n-th slice meets the same one.
 */
enum Arrivals {
  UNIFORM("evenly"),
  POISSON("by exponential gaps");

  private final String spacing;

  Arrivals(String spacing) {
    this.spacing = spacing;
  }

  /** How the calls are spaced, as the run's header says it: {@code evenly (uniform)}. */
  String describe() {
    return spacing + " (" + wireName() + ")";
  }

  /**
   * The calls' due times in nanoseconds from the slice's start, ascending: {@code rate * seconds}
   * of them.
   */
  long[] dueNanos(int rate, int seconds, long seed) {
    if (rate <= 0 || seconds <= 0) {
      throw new IllegalArgumentException(
          "a fixed-rate slice needs a positive rate and length, was "
              + rate
              + " calls/s for "
              + seconds
              + " s");
    }
    int calls = Math.multiplyExact(rate, seconds);
    double meanGapNanos = 1e9 / rate;
    long[] due = new long[calls];
    if (this == UNIFORM) {
      for (int k = 0; k < calls; k++) {
        due[k] = Math.round(k * meanGapNanos);
      }
      return due;
    }
    SplittableRandom random = new SplittableRandom(seed);
    double at = 0;
    for (int k = 0; k < calls; k++) {
      // 1 - u lies in (0, 1]: the logarithm is finite.
      at += -Math.log(1 - random.nextDouble()) * meanGapNanos;
      due[k] = Math.round(at);
    }
    return due;
  }

  /** The option's spelling: {@code poisson} or {@code uniform}. */
  String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  static Arrivals parse(String value) {
    for (Arrivals a : values()) {
      if (a.wireName().equals(value)) {
        return a;
      }
    }
    throw new IllegalArgumentException("takes poisson or uniform, was '" + value + "'");
  }
}
