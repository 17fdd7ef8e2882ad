package dev.toolgate.demo;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The faults, service times and answer formats set per tool. Thread-safe: tests set faults from
 * their own thread while the server's event loop consumes them.
 */
public final class Faults {

  private record Armed(Fault fault, int remaining, long expiresAtMs) {}

  private final Map<String, Armed> armed = new ConcurrentHashMap<>();
  private final Map<String, Long> latencyMs = new ConcurrentHashMap<>();
  private final Map<String, AnswerFormat> answerFormats = new ConcurrentHashMap<>();
  private final LongSupplier clockMs;

  Faults(LongSupplier clockMs) {
    this.clockMs = clockMs;
  }

  /** Arms a fault for the next calls of a tool, replacing any armed one. */
  public void inject(String tool, Fault fault) {
    long expires =
        fault.durationMs() > 0 ? clockMs.getAsLong() + fault.durationMs() : Long.MAX_VALUE;
    armed.put(tool, new Armed(fault, fault.times() > 0 ? fault.times() : -1, expires));
  }

  /** A fixed service time added to every call of the tool ({@code "*"}: every tool). */
  public void latency(String tool, long millis) {
    latencyMs.put(tool, millis);
  }

  /** How the tool's answers are sent ({@code "*"}: every tool); JSON unless set. */
  public void answerFormat(String tool, AnswerFormat format) {
    answerFormats.put(tool, format);
  }

  public void clear() {
    armed.clear();
    latencyMs.clear();
    answerFormats.clear();
  }

  long latencyOf(String tool) {
    return latencyMs.getOrDefault(tool, latencyMs.getOrDefault("*", 0L));
  }

  AnswerFormat answerFormatOf(String tool) {
    return answerFormats.getOrDefault(tool, answerFormats.getOrDefault("*", AnswerFormat.JSON));
  }

  /** Takes the fault that applies to this call, if any, using one of its remaining times. */
  Optional<Fault> take(String tool) {
    Fault[] taken = new Fault[1];
    armed.computeIfPresent(
        tool,
        (t, a) -> {
          if (clockMs.getAsLong() >= a.expiresAtMs()) {
            return null;
          }
          taken[0] = a.fault();
          if (a.remaining() < 0) {
            return a;
          }
          return a.remaining() == 1
              ? null
              : new Armed(a.fault(), a.remaining() - 1, a.expiresAtMs());
        });
    return Optional.ofNullable(taken[0]);
  }
}
