package dev.toolgate.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * The load benchmark's command line, read by picocli from the options of {@link Line}: each is
 * declared once, with its default and its help, so what {@code --help} says the default is, is the
 * default. A bad value is refused with a message that names the option and the value.
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
      List.of(
          "direct",
          "nginx",
          "vertx-relay",
          "pass-through",
          "full",
          "full-api",
          "full-local",
          "control");

  static final List<String> ANSWER_FORMATS = List.of("json", "sse");

  /** The usage text's width. */
  static final int WIDTH = 104;

  /** A command line the benchmark cannot run: the message names the option and the value. */
  static final class InvalidOptionException extends IllegalArgumentException {
    InvalidOptionException(String message) {
      super(message);
    }
  }

  /** The options of a command line, defaults for those it does not give. */
  static LoadBenchOptions parse(String... args) {
    Line line = new Line();
    try {
      commandLine(line).parseArgs(args);
    } catch (ParameterException e) {
      throw new InvalidOptionException(e.getMessage());
    }
    return line.options();
  }

  /** True when the command line asks for the usage text. */
  static boolean wantsHelp(String... args) {
    return Arrays.stream(args).anyMatch(a -> a.equals("--help") || a.equals("-h"));
  }

  /** The usage text, generated from the options. */
  static String usage() {
    return commandLine(new Line()).getUsageMessage(CommandLine.Help.Ansi.OFF);
  }

  private static CommandLine commandLine(Line line) {
    return new CommandLine(line).setUsageHelpWidth(WIDTH);
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

  /** The command line as picocli reads it. */
  @Command(
      name = "bench/run",
      sortOptions = false,
      description =
          "Loads the same MCP calls direct, through nginx, a Vert.x relay and the sidecar, side by side.")
  static final class Line {

    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "Show this help message and exit.")
    boolean help;

    @Option(
        names = "--rates",
        paramLabel = "LIST",
        defaultValue = "500,1000,2000",
        converter = RatesConverter.class,
        description = "Fixed rates to measure, calls/s" + " (default ${DEFAULT-VALUE}).")
    String rates;

    @Option(
        names = "--seconds",
        paramLabel = "N",
        defaultValue = "10",
        converter = Positive.class,
        description =
            "Measured seconds per target and rate, taken as one-second slices round-robin over the targets,"
                + " and the seconds of each target's one-call-at-a-time and saturation runs, taken the same way"
                + " (default ${DEFAULT-VALUE}).")
    int seconds;

    @Option(
        names = "--goal-seconds",
        paramLabel = "N",
        defaultValue = "60",
        converter = NonNegative.class,
        description =
            "Measured seconds per target at the goals' rate, "
                + Goals.RATE
                + " calls/s, at least: on a VM"
                + " whose memory reclaim takes a core for 20 ms twice a second, ten slices read direct against"
                + " itself up to 3 ms apart at the p99, more than the goal's 2 ms (docs/performance.md); 0 takes"
                + " --seconds there too"
                + " (default ${DEFAULT-VALUE}).")
    int goalSeconds;

    @Option(
        names = "--warmup",
        paramLabel = "N",
        defaultValue = "5",
        converter = NonNegative.class,
        description =
            "Warm-up seconds per target at saturation, then as many at the lowest rate, round-robin"
                + " (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(
        names = "--settle",
        paramLabel = "N",
        defaultValue = "3",
        converter = NonNegative.class,
        description =
            "Seconds of each rate's load per target before its slices, and of the same load before the"
                + " one-call-at-a-time and saturation runs, round-robin, not counted: a target that sat idle"
                + " does not start cold"
                + " (default ${DEFAULT-VALUE}).")
    int settle;

    @Option(
        names = "--in-flight",
        paramLabel = "N",
        defaultValue = "64",
        converter = Positive.class,
        description = "Concurrent calls at saturation" + " (default ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(
        names = "--service-ms",
        paramLabel = "N",
        defaultValue = "1",
        converter = NonNegative.class,
        description = "The backend's service time per call" + " (default ${DEFAULT-VALUE}).")
    int serviceMs;

    @Option(
        names = "--answers",
        paramLabel = "FORMAT",
        defaultValue = "json",
        converter = AnswersConverter.class,
        description =
            "How the backend answers every call: json, one JSON body; sse, an SSE stream (a priming event"
                + " at once, the answer when served), as the MCP SDKs' servers do unless told otherwise"
                + " (default ${DEFAULT-VALUE}).")
    String answers;

    @Option(
        names = "--arrivals",
        paramLabel = "SPACING",
        defaultValue = "uniform",
        converter = ArrivalsConverter.class,
        description =
            "How a fixed rate spaces its calls: uniform, every 1/rate exactly; poisson, by exponential gaps"
                + " as from independent agents, some close enough to queue (every target's n-th slice meets"
                + " the same seeded schedule)"
                + " (default ${DEFAULT-VALUE}).")
    Arrivals arrivals;

    @Option(
        names = "--starts",
        paramLabel = "N",
        defaultValue = "5",
        converter = Positive.class,
        description = "Sidecar starts timed for time-to-ready" + " (default ${DEFAULT-VALUE}).")
    int starts;

    @Option(
        names = "--targets",
        paramLabel = "LIST",
        defaultValue = "direct,control,nginx,vertx-relay,pass-through,full",
        converter = TargetsConverter.class,
        description =
            "Which of "
                + "direct,nginx,vertx-relay,pass-through,full,full-api,full-local,control"
                + " to load; direct is the baseline of the deltas and"
                + " always runs; vertx-relay is Vert.x relaying bytes on the sidecar's JVM flags, the"
                + " framework's floor; full-api is the full policy on the state service (api mode, HTTPS"
                + " and a token, as in a cluster); full-local is the full policy on local state, no"
                + " Hazelcast; control is"
                + " direct again, whose deltas show the machine's own noise (the p99 goal's resolution)"
                + " (default ${DEFAULT-VALUE}).")
    String targets;

    @Option(
        names = "--sessions",
        paramLabel = "N",
        defaultValue = "1",
        converter = Positive.class,
        description =
            "MCP sessions per target, taken in turn by the calls: one is a single busy session; more"
                + " spread the quota checks over as many shared counters"
                + " (default ${DEFAULT-VALUE}).")
    int sessions;

    @Option(
        names = "--first-calls",
        paramLabel = "N",
        defaultValue = "500",
        converter = NonNegativeCalls.class,
        description =
            "Calls sent at 50 calls/s to a freshly started sidecar (full policy, Hazelcast client as in a"
                + " cluster), its first calls after ready: 0 skips"
                + " (default ${DEFAULT-VALUE}).")
    int firstCalls;

    @Option(
        names = "--warmup-calls",
        paramLabel = "N",
        defaultValue = "1000",
        converter = NonNegativeCalls.class,
        description =
            "The sidecar's runtime.warmupCalls for one more fresh sidecar, whose first calls are measured"
                + " once its warm-up is done: 0 skips"
                + " (default ${DEFAULT-VALUE}).")
    int warmupCalls;

    @Option(
        names = "--compare",
        paramLabel = "DIR",
        description =
            "Also load the sidecar targets of another checkout, built (its jar, JVM options, image"
                + " environment and archive), in the same slices: a before/after in one run"
                + ".")
    Path compare;

    @Option(
        names = "--profile",
        paramLabel = "EVENT",
        description =
            "Attach async-profiler to every loaded sidecar and to the Vert.x relay from their start,"
                + " sampling EVENT (cpu, alloc, wall or lock), and write each one's flame graph when it"
                + " stops, to bench/target/load/profiles/<target>.html"
                + ".")
    String profile;

    @Option(
        names = "--slow-calls",
        paramLabel = "MS",
        defaultValue = "0",
        converter = NonNegative.class,
        description =
            "Write every call slower than MS ms, with its phase, target and wall-clock due time, to"
                + " bench/target/load/slow-calls.tsv, and the memory reclaim's stalls beside it: a tail lined up"
                + " with GC logs, the reclaim or the clock; 0 skips"
                + " (default ${DEFAULT-VALUE}).")
    int slowCallsMs;

    @Option(
        names = "--reclaim-margin",
        paramLabel = "MS",
        defaultValue = "5",
        converter = NonNegative.class,
        description =
            "Watch the kernel's memory-reclaim threads (kdamond, kswapd) in /proc every 4 ms while the rates run, and"
                + " read each target's p99 over direct's again without the calls due within MS ms of one of"
                + " their stalls (the quiet+p99 column; the goal is still judged on every call): what the tail"
                + " is without the machine's own reclaim; 0 skips the watch"
                + " (default ${DEFAULT-VALUE}).")
    int reclaimMarginMs;

    @Option(
        names = "--scrape-seconds",
        paramLabel = "N",
        defaultValue = "15",
        converter = NonNegative.class,
        description =
            "Scrape each sidecar's /metrics (its allocation, GC, JIT and quota counters) before its first slice"
                + " of a rate, after its last, and between two of its slices where N seconds have passed since the"
                + " last scrape: the pace of the chart's PodMonitor. Scraped around every slice, a sidecar compiled"
                + " the scrape's code during its slices (docs/performance.md); 0 scrapes before and after every slice"
                + " (default ${DEFAULT-VALUE}).")
    int scrapeSeconds;

    LoadBenchOptions options() {
      return new LoadBenchOptions(
          Arrays.stream(rates.split(",")).map(r -> Integer.valueOf(r.trim())).toList(),
          seconds,
          goalSeconds,
          warmup,
          settle,
          inFlight,
          serviceMs,
          answers,
          arrivals,
          starts,
          List.of(targets.split(",")),
          sessions,
          firstCalls,
          warmupCalls,
          compare == null ? null : compare.toAbsolutePath().normalize(),
          profile,
          slowCallsMs,
          reclaimMarginMs,
          scrapeSeconds);
    }
  }

  /** A whole number of at least 1. */
  static final class Positive implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return atLeast(value, 1, "");
    }
  }

  /** A whole number of at least 0. */
  static final class NonNegative implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return atLeast(value, 0, "");
    }
  }

  /** A count of calls, where 0 skips them. */
  static final class NonNegativeCalls implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return atLeast(value, 0, " (0 skips)");
    }
  }

  /** Rates in calls/s, each at least 1, separated by commas. */
  static final class RatesConverter implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      for (String rate : value.split(",", -1)) {
        Integer n = parseOrNull(rate);
        if (n == null || n < 1) {
          throw new TypeConversionException(
              "takes rates in calls/s, each at least 1, separated by commas; '"
                  + rate
                  + "' in '"
                  + value
                  + "' is not one");
        }
      }
      return value;
    }
  }

  /** Some of {@link #TARGETS}, separated by commas. */
  static final class TargetsConverter implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      for (String target : value.split(",", -1)) {
        if (!TARGETS.contains(target)) {
          throw new TypeConversionException(
              "unknown target '" + target + "', expected some of " + String.join(",", TARGETS));
        }
      }
      return value;
    }
  }

  /** One of {@link #ANSWER_FORMATS}. */
  static final class AnswersConverter implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      if (!ANSWER_FORMATS.contains(value)) {
        throw new TypeConversionException(
            "must be one of " + String.join(", ", ANSWER_FORMATS) + ", was '" + value + "'");
      }
      return value;
    }
  }

  /** A spacing by its name. */
  static final class ArrivalsConverter implements ITypeConverter<Arrivals> {
    @Override
    public Arrivals convert(String value) {
      try {
        return Arrivals.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  private static int atLeast(String value, int least, String note) {
    Integer n = parseOrNull(value);
    if (n == null || n < least) {
      throw new TypeConversionException(
          "must be a whole number of at least " + least + note + ", was '" + value + "'");
    }
    return n;
  }

  private static Integer parseOrNull(String text) {
    try {
      return Integer.valueOf(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
