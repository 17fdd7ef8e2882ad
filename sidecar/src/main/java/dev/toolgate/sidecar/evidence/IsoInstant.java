package dev.toolgate.sidecar.evidence;

import java.time.Instant;

/**
 * Instants as evidence writes them: exactly {@link Instant#toString()} (ISO-8601 in UTC, the
 * fraction in groups of three digits, none when zero), without its formatter's cost on every event.
 * {@code toString()} of the whole second, less its {@code Z}, is kept once per second; each instant
 * then costs one string of its own.
 */
public final class IsoInstant {

  /** The last second formatted: read and replaced whole, so any thread may use it. */
  private record Second(long epochSecond, String text) {}

  private static volatile Second last = new Second(Long.MIN_VALUE, "");

  private IsoInstant() {}

  public static String format(Instant at) {
    long epochSecond = at.getEpochSecond();
    Second second = last;
    if (second.epochSecond() != epochSecond) {
      String whole = Instant.ofEpochSecond(epochSecond).toString();
      second = new Second(epochSecond, whole.substring(0, whole.length() - 1));
      last = second;
    }
    StringBuilder text = new StringBuilder(32).append(second.text());
    int nano = at.getNano();
    if (nano != 0) {
      text.append('.');
      if (nano % 1_000_000 == 0) {
        digits(text, nano / 1_000_000, 3);
      } else if (nano % 1_000 == 0) {
        digits(text, nano / 1_000, 6);
      } else {
        digits(text, nano, 9);
      }
    }
    return text.append('Z').toString();
  }

  private static void digits(StringBuilder text, int value, int width) {
    int divisor = 1;
    for (int i = 1; i < width; i++) {
      divisor *= 10;
    }
    for (; divisor > 0; divisor /= 10) {
      text.append((char) ('0' + value / divisor % 10));
    }
  }
}
