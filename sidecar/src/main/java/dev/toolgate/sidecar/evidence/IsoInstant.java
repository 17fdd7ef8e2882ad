package dev.toolgate.sidecar.evidence;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Instants as evidence writes them: exactly {@link Instant#toString()} (ISO-8601 in UTC, the
 * fraction in groups of three digits, none when zero), without its formatter's cost on every
 * event. The date and time to the second are formatted once per second and kept; each instant
 * then costs one string of its own. Outside years 0000–9999, {@link Instant#toString()} itself.
 */
public final class IsoInstant {

  private static final long FIRST_SECOND = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
  private static final long LAST_SECOND = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
  private static final DateTimeFormatter TO_THE_SECOND =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

  /** The last second formatted: read and replaced whole, so any thread may use it. */
  private record Second(long epochSecond, String text) {}

  private static volatile Second last = new Second(FIRST_SECOND - 1, "");

  private IsoInstant() {}

  public static String format(Instant at) {
    long epochSecond = at.getEpochSecond();
    if (epochSecond < FIRST_SECOND || epochSecond > LAST_SECOND) {
      return at.toString();
    }
    Second second = last;
    if (second.epochSecond() != epochSecond) {
      second = new Second(epochSecond, TO_THE_SECOND.format(at));
      last = second;
    }
    StringBuilder text = new StringBuilder(30).append(second.text());
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
