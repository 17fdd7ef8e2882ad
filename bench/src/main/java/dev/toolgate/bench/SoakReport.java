package dev.toolgate.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The soak's report: what happened when, memory and answers per window, writes against intents. */
final class SoakReport {

  private record Event(long second, String what) {}

  private record Sample(
      long second, double residentMib, boolean alive, Map<String, Long> outcomes) {}

  private final int minutes;
  private final int rate;
  private final int slowConnections;
  private final List<Event> events = new ArrayList<>();
  private final List<Sample> samples = new ArrayList<>();
  private String writes = "";
  private String totals = "";

  SoakReport(int minutes, int rate, int slowConnections) {
    this.minutes = minutes;
    this.rate = rate;
    this.slowConnections = slowConnections;
  }

  void event(long second, String what) {
    events.add(new Event(second, what));
  }

  /** The sidecar at {@code second}; {@code outcomes} counted since the start. */
  void sample(long second, double residentMib, boolean alive, Map<String, Long> outcomes) {
    samples.add(new Sample(second, residentMib, alive, new TreeMap<>(outcomes)));
  }

  void writes(long intents, long requests, long operations) {
    writes =
        String.format(
            Locale.ROOT,
            "| write intents | write requests (with the agent's resends) | backend operations |"
                + " duplicates |\n| ---: | ---: | ---: | ---: |\n| %,d | %,d | %,d | %,d |\n",
            intents,
            requests,
            operations,
            Math.max(0, operations - intents));
  }

  void finish(Map<String, Long> outcomes, boolean alive, double peakResidentMib) {
    long all = outcomes.values().stream().mapToLong(Long::longValue).sum();
    StringBuilder s = new StringBuilder("| answer | calls | share |\n| --- | ---: | ---: |\n");
    outcomes.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(
            e ->
                s.append(
                    String.format(
                        Locale.ROOT,
                        "| %s | %,d | %.2f %% |\n",
                        e.getKey(),
                        e.getValue(),
                        100.0 * e.getValue() / Math.max(1, all))));
    s.append(
        String.format(
            Locale.ROOT,
            "\nThe sidecar %s at the end; its peak resident set was %.0f MiB.\n",
            alive ? "was still running" : "HAD EXITED",
            peakResidentMib));
    totals = s.toString();
  }

  String markdown() {
    StringBuilder s =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "# Soak: %d min at %d calls/s, %d slow connections in their phase\n\n",
                minutes,
                rate,
                slowConnections));
    s.append("## What happened when\n\n| s | event |\n| ---: | --- |\n");
    events.forEach(
        e -> s.append("| ").append(e.second()).append(" | ").append(e.what()).append(" |\n"));
    s.append("\n## The sidecar over time\n\n")
        .append("| s | resident MiB | calls | ok | other answers in the window |\n")
        .append("| ---: | ---: | ---: | ---: | --- |\n");
    Map<String, Long> before = Map.of();
    for (Sample sample : samples) {
      Map<String, Long> window = new TreeMap<>();
      for (Map.Entry<String, Long> e : sample.outcomes().entrySet()) {
        window.put(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L));
      }
      long calls = window.values().stream().mapToLong(Long::longValue).sum();
      long ok = window.getOrDefault("ok", 0L);
      StringBuilder other = new StringBuilder();
      window.forEach(
          (k, v) -> {
            if (!k.equals("ok") && v > 0) {
              other.append(other.length() == 0 ? "" : ", ").append(k).append(' ').append(v);
            }
          });
      s.append(
          String.format(
              Locale.ROOT,
              "| %d | %s | %,d | %,d | %s |\n",
              sample.second(),
              sample.alive() ? String.format(Locale.ROOT, "%.0f", sample.residentMib()) : "exited",
              calls,
              ok,
              other));
      before = sample.outcomes();
    }
    s.append("\n## Answers by class\n\n").append(totals);
    s.append("\n## Writes\n\n").append(writes);
    return s.toString();
  }
}
