package dev.toolgate.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The load benchmark's command line. Each option is declared once, with its default and its help:
 * the usage text is made from those declarations, so what {@code --help} says the default is, is
 * the default. A bad value is refused with a message that names the option and the value.
 *
 * @param rates the fixed rates, calls/s
 * @param goalSeconds the least one-second slices per target at the goals' rate; see {@link
 *     #slicesAt}
 * @param answers how the backend answers: {@code json} or {@code sse}
 * @param arrivals how a fixed rate's calls are spaced
 * @param compare another checkout whose sidecar is loaded in the same slices, or null
 * @param profile async-profiler's event for every loaded JVM target, or null
 * @param reclaimMarginMs how near a stall of the kernel's memory reclaim a call's due time leaves
 *     it out of the quiet+p99 reading, ms; 0 turns the watch off
 * @param scrapeSeconds the least time between two scrapes of a sidecar's /metrics while a rate's
 *     slices run; 0 scrapes before and after every slice (see {@link ScrapeSchedule})
 */
record LoadBenchOptions(
    List<Integer> rates,
    int seconds,
    int goalSeconds,
    int warmup,
    int settle,
    int inFlight,
    int serviceMs,
    String answers,
    Arrivals arrivals,
    int starts,
    List<String> targets,
    int sessions,
    int firstCalls,
    int warmupCalls,
    Path compare,
    String profile,
    int slowCallsMs,
    int reclaimMarginMs,
    int scrapeSeconds) {

  /** Every target {@code --targets} accepts, in the order the tables print them. */
  static final List<String> TARGETS =
      List.of("direct", "nginx", "vertx-relay", "pass-through", "full", "full-local", "control");

  /** How an option's value is read and checked. */
  private enum Kind {
    POSITIVE,
    NON_NEGATIVE,
    RATES,
    TARGETS,
    ANSWERS,
    ARRIVALS,
    TEXT
  }

  /**
   * The answer formats {@code --answers} accepts (the demo backend's {@code /answers} endpoint).
   */
  static final List<String> ANSWER_FORMATS = List.of("json", "sse");

  private record Option(String name, String value, String defaultValue, Kind kind, String help) {}

  private static final List<Option> OPTIONS =
      List.of(
          new Option(
              "--rates", "LIST", "500,1000,2000", Kind.RATES, "fixed rates to measure, calls/s"),
          new Option(
              "--seconds",
              "N",
              "10",
              Kind.POSITIVE,
              "measured seconds per target and rate, taken as one-second slices round-robin over the targets,"
                  + " and the seconds of each target's one-call-at-a-time and saturation runs, taken the same way"),
          new Option(
              "--goal-seconds",
              "N",
              "60",
              Kind.NON_NEGATIVE,
              "measured seconds per target at the goals' rate, "
                  + Goals.RATE
                  + " calls/s, at least: on a VM"
                  + " whose memory reclaim takes a core for 20 ms twice a second, ten slices read direct against"
                  + " itself up to 3 ms apart at the p99, more than the goal's 2 ms (docs/performance.md); 0 takes"
                  + " --seconds there too"),
          new Option(
              "--warmup",
              "N",
              "5",
              Kind.NON_NEGATIVE,
              "warm-up seconds per target at saturation, then as many at the lowest rate, round-robin"),
          new Option(
              "--settle",
              "N",
              "3",
              Kind.NON_NEGATIVE,
              "seconds of each rate's load per target before its slices, and of the same load before the"
                  + " one-call-at-a-time and saturation runs, round-robin, not counted: a target that sat idle"
                  + " does not start cold"),
          new Option("--in-flight", "N", "64", Kind.POSITIVE, "concurrent calls at saturation"),
          new Option(
              "--service-ms", "N", "1", Kind.NON_NEGATIVE, "the backend's service time per call"),
          new Option(
              "--answers",
              "FORMAT",
              "json",
              Kind.ANSWERS,
              "how the backend answers every call: json, one JSON body; sse, an SSE stream (a priming event"
                  + " at once, the answer when served), as the MCP SDKs' servers do unless told otherwise"),
          new Option(
              "--arrivals",
              "SPACING",
              "uniform",
              Kind.ARRIVALS,
              "how a fixed rate spaces its calls: uniform, every 1/rate exactly; poisson, by exponential gaps"
                  + " as from independent agents, some close enough to queue (every target's n-th slice meets"
                  + " the same seeded schedule)"),
          new Option("--starts", "N", "5", Kind.POSITIVE, "sidecar starts timed for time-to-ready"),
          new Option(
              "--targets",
              "LIST",
              "direct,control,nginx,vertx-relay,pass-through,full",
              Kind.TARGETS,
              "which of "
                  + String.join(",", TARGETS)
                  + " to load; direct is the baseline of the deltas and"
                  + " always runs; vertx-relay is Vert.x relaying bytes on the sidecar's JVM flags, the"
                  + " framework's floor; full-local is the full policy on local state, no Hazelcast; control is"
                  + " direct again, whose deltas show the machine's own noise (the p99 goal's resolution)"),
          new Option(
              "--sessions",
              "N",
              "1",
              Kind.POSITIVE,
              "MCP sessions per target, taken in turn by the calls: one is a single busy session; more"
                  + " spread the quota checks over as many shared counters"),
          new Option(
              "--first-calls",
              "N",
              "500",
              Kind.NON_NEGATIVE,
              "calls sent at 50 calls/s to a freshly started sidecar (full policy, Hazelcast client as in a"
                  + " cluster), its first calls after ready: 0 skips"),
          new Option(
              "--warmup-calls",
              "N",
              "1000",
              Kind.NON_NEGATIVE,
              "the sidecar's runtime.warmupCalls for one more fresh sidecar, whose first calls are measured"
                  + " once its warm-up is done: 0 skips"),
          new Option(
              "--compare",
              "DIR",
              "",
              Kind.TEXT,
              "also load the sidecar targets of another checkout, built (its jar, JVM options, image"
                  + " environment and archive), in the same slices: a before/after in one run"),
          new Option(
              "--profile",
              "EVENT",
              "",
              Kind.TEXT,
              "attach async-profiler to every loaded sidecar and to the Vert.x relay from their start,"
                  + " sampling EVENT (cpu, alloc, wall or lock), and write each one's flame graph when it"
                  + " stops, to bench/target/load/profiles/<target>.html"),
          new Option(
              "--slow-calls",
              "MS",
              "0",
              Kind.NON_NEGATIVE,
              "write every call slower than MS ms, with its phase, target and wall-clock due time, to"
                  + " bench/target/load/slow-calls.tsv, and the memory reclaim's stalls beside it: a tail lined up"
                  + " with GC logs, the reclaim or the clock; 0 skips"),
          new Option(
              "--reclaim-margin",
              "MS",
              "5",
              Kind.NON_NEGATIVE,
              "watch the kernel's memory-reclaim threads (kdamond, kswapd) in /proc every 4 ms while the rates run, and"
                  + " read each target's p99 over direct's again without the calls due within MS ms of one of"
                  + " their stalls (the quiet+p99 column; the goal is still judged on every call): what the tail"
                  + " is without the machine's own reclaim; 0 skips the watch"),
          new Option(
              "--scrape-seconds",
              "N",
              "15",
              Kind.NON_NEGATIVE,
              "scrape each sidecar's /metrics (its allocation, GC, JIT and quota counters) before its first slice"
                  + " of a rate, after its last, and between two of its slices where N seconds have passed since the"
                  + " last scrape: the pace of the chart's PodMonitor. Scraped around every slice, a sidecar compiled"
                  + " the scrape's code during its slices (docs/performance.md); 0 scrapes before and after every slice"));

  private static final int HELP_COLUMN = 25;
  private static final int WIDTH = 104;

  /** A command line the benchmark cannot run: the message names the option and the value. */
  static final class InvalidOptionException extends IllegalArgumentException {
    InvalidOptionException(String message) {
      super(message);
    }
  }

  /** The options of a command line, defaults for those it does not give. */
  static LoadBenchOptions parse(String... args) {
    Map<String, String> given = new LinkedHashMap<>();
    OPTIONS.forEach(o -> given.put(o.name(), o.defaultValue()));
    for (int i = 0; i < args.length; i++) {
      if (!given.containsKey(args[i])) {
        throw new InvalidOptionException("unknown option '" + args[i] + "'");
      }
      if (i + 1 >= args.length) {
        throw new InvalidOptionException(args[i] + " needs a value");
      }
      given.put(args[i], args[++i]);
    }
    OPTIONS.forEach(o -> check(o, given.get(o.name())));
    return new LoadBenchOptions(
        Arrays.stream(given.get("--rates").split(",")).map(r -> Integer.valueOf(r.trim())).toList(),
        number(given, "--seconds"),
        number(given, "--goal-seconds"),
        number(given, "--warmup"),
        number(given, "--settle"),
        number(given, "--in-flight"),
        number(given, "--service-ms"),
        given.get("--answers"),
        Arrivals.parse(given.get("--arrivals")),
        number(given, "--starts"),
        List.of(given.get("--targets").split(",")),
        number(given, "--sessions"),
        number(given, "--first-calls"),
        number(given, "--warmup-calls"),
        given.get("--compare").isEmpty()
            ? null
            : Path.of(given.get("--compare")).toAbsolutePath().normalize(),
        given.get("--profile").isEmpty() ? null : given.get("--profile"),
        number(given, "--slow-calls"),
        number(given, "--reclaim-margin"),
        number(given, "--scrape-seconds"));
  }

  /**
   * The one-second slices each target takes at {@code rate}: {@link #seconds}, or at the goals'
   * rate {@link #goalSeconds} where that is more.
   */
  int slicesAt(int rate) {
    return rate == Goals.RATE ? Math.max(seconds, goalSeconds) : seconds;
  }

  /**
   * The least time between two scrapes of a sidecar while a rate's slices run ({@link
   * #scrapeSeconds}).
   */
  Duration scrapeInterval() {
    return Duration.ofSeconds(scrapeSeconds);
  }

  /** True when the command line asks for the usage text. */
  static boolean wantsHelp(String... args) {
    return Arrays.stream(args).anyMatch(a -> a.equals("--help") || a.equals("-h"));
  }

  private static int number(Map<String, String> given, String name) {
    return Integer.parseInt(given.get(name).trim());
  }

  private static void check(Option o, String value) {
    switch (o.kind()) {
      case POSITIVE -> atLeast(o, value, 1);
      case NON_NEGATIVE -> atLeast(o, value, 0);
      case RATES -> {
        for (String rate : value.split(",", -1)) {
          if (parseOrNull(rate) == null || parseOrNull(rate) < 1) {
            throw new InvalidOptionException(
                o.name()
                    + " takes rates in calls/s, each at least 1,"
                    + " separated by commas; '"
                    + rate
                    + "' in '"
                    + value
                    + "' is not one");
          }
        }
      }
      case TARGETS -> {
        for (String target : value.split(",", -1)) {
          if (!TARGETS.contains(target)) {
            throw new InvalidOptionException(
                "unknown target '"
                    + target
                    + "' in "
                    + o.name()
                    + ", expected some of "
                    + String.join(",", TARGETS));
          }
        }
      }
      case ANSWERS -> {
        if (!ANSWER_FORMATS.contains(value)) {
          throw new InvalidOptionException(
              o.name()
                  + " must be one of "
                  + String.join(", ", ANSWER_FORMATS)
                  + ", was '"
                  + value
                  + "'");
        }
      }
      case ARRIVALS -> {
        try {
          Arrivals.parse(value);
        } catch (IllegalArgumentException e) {
          throw new InvalidOptionException(e.getMessage());
        }
      }
      case TEXT -> {}
    }
  }

  private static void atLeast(Option o, String value, int least) {
    Integer n = parseOrNull(value);
    if (n == null || n < least) {
      throw new InvalidOptionException(
          o.name()
              + " must be a whole number of at least "
              + least
              + (least == 0 && o.name().endsWith("-calls") ? " (0 skips)" : "")
              + ", was '"
              + value
              + "'");
    }
  }

  private static Integer parseOrNull(String text) {
    try {
      return Integer.valueOf(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The usage text: a synopsis with every default, then each option's help. */
  static String usage() {
    StringBuilder out = new StringBuilder("Usage: bench/run");
    int column = out.length();
    for (Option o : OPTIONS) {
      String item =
          " [" + o.name() + " " + (o.defaultValue().isEmpty() ? o.value() : o.defaultValue()) + "]";
      if (column + item.length() > WIDTH) {
        out.append('\n').append(" ".repeat("Usage: bench/run".length()));
        column = "Usage: bench/run".length();
      }
      out.append(item);
      column += item.length();
    }
    out.append('\n');
    for (Option o : OPTIONS) {
      String head = "  " + o.name() + " " + o.value();
      String help =
          o.help() + (o.defaultValue().isEmpty() ? "" : " (default " + o.defaultValue() + ")");
      out.append(head).append(" ".repeat(Math.max(1, HELP_COLUMN - head.length())));
      out.append(wrap(help, HELP_COLUMN)).append('\n');
    }
    return out.toString();
  }

  /** Words filled to the width, continuation lines indented to the help column. */
  private static String wrap(String text, int indent) {
    StringBuilder out = new StringBuilder();
    int column = indent;
    for (String word : text.split(" ")) {
      if (column > indent && column + 1 + word.length() > WIDTH) {
        out.append('\n').append(" ".repeat(indent));
        column = indent;
      } else if (column > indent) {
        out.append(' ');
        column++;
      }
      out.append(word);
      column += word.length();
    }
    return out.toString();
  }
}
