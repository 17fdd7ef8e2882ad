package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LoadBenchOptionsTest {

  @Test
  void takesTheDefaultsTheUsageTextStates() {
    LoadBenchOptions defaults = LoadBenchOptions.parse();
    String usage = LoadBenchOptions.usage();

    assertThat(defaults.rates()).containsExactly(500, 1000, 2000);
    assertThat(defaults.targets())
        .containsExactly("direct", "control", "nginx", "vertx-relay", "pass-through", "full");
    assertThat(usage)
        .contains("--rates=LIST", "(default 500,1000,2000)")
        .contains("--seconds=N", "(default " + defaults.seconds() + ")")
        .contains("--goal-seconds=N", "(default " + defaults.goalSeconds() + ")")
        .contains("(default " + defaults.inFlight() + ")")
        .contains("(default " + defaults.answers() + ")")
        .contains("(default " + defaults.warmupCalls() + ")")
        .contains("(default " + defaults.scrapeSeconds() + ")")
        .contains("--targets=LIST")
        .contains("--compare=DIR", "--profile=EVENT");
    assertThat(usage.replaceAll(",\\s+", ","))
        .as("the targets' default, wrapped at a comma")
        .contains("(default " + String.join(",", defaults.targets()) + ")");
    assertThat(defaults.answers()).isEqualTo("json");
    assertThat(defaults.arrivals()).isEqualTo(Arrivals.UNIFORM);
    assertThat(defaults.compare()).isNull();
    assertThat(defaults.profile()).isNull();
    assertThat(defaults.slowCallsMs()).as("no slow-call log unless asked for").isZero();
    assertThat(defaults.reclaimMarginMs()).as("the reclaim watched unless turned off").isEqualTo(5);
  }

  @Test
  void keepsEveryUsageLineWithinItsWidth() {
    assertThat(LoadBenchOptions.usage().lines())
        .allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(104));
  }

  @Test
  void readsEveryOptionGiven() {
    LoadBenchOptions o =
        LoadBenchOptions.parse(
            "--rates",
            "1000",
            "--seconds",
            "20",
            "--goal-seconds",
            "30",
            "--warmup",
            "0",
            "--settle",
            "2",
            "--in-flight",
            "32",
            "--service-ms",
            "0",
            "--answers",
            "sse",
            "--arrivals",
            "poisson",
            "--starts",
            "1",
            "--targets",
            "direct,full",
            "--sessions",
            "4",
            "--first-calls",
            "0",
            "--warmup-calls",
            "0",
            "--compare",
            "other",
            "--profile",
            "cpu",
            "--slow-calls",
            "5",
            "--reclaim-margin",
            "0",
            "--scrape-seconds",
            "0");

    assertThat(o.rates()).containsExactly(1000);
    assertThat(
            List.of(
                o.seconds(),
                o.goalSeconds(),
                o.warmup(),
                o.settle(),
                o.inFlight(),
                o.serviceMs(),
                o.starts(),
                o.sessions(),
                o.firstCalls(),
                o.warmupCalls()))
        .containsExactly(20, 30, 0, 2, 32, 0, 1, 4, 0, 0);
    assertThat(o.targets()).containsExactly("direct", "full");
    assertThat(o.answers()).isEqualTo("sse");
    assertThat(o.arrivals()).isEqualTo(Arrivals.POISSON);
    assertThat(o.compare()).isEqualTo(Path.of("other").toAbsolutePath().normalize());
    assertThat(o.profile()).isEqualTo("cpu");
    assertThat(o.slowCallsMs()).isEqualTo(5);
    assertThat(o.reclaimMarginMs()).isZero();
    assertThat(o.scrapeSeconds()).isZero();
  }

  @Test
  void takesSixtySlicesAtTheGoalsRateAndTenAtTheOthersByDefault() {
    LoadBenchOptions defaults = LoadBenchOptions.parse();

    assertThat(defaults.slicesAt(Goals.RATE)).isEqualTo(60);
    assertThat(defaults.slicesAt(500)).isEqualTo(10);
    assertThat(defaults.slicesAt(2000)).isEqualTo(10);
  }

  @Test
  void takesTheSecondsAtTheGoalsRateWhereTheyAreMoreThanTheGoalSeconds() {
    assertThat(LoadBenchOptions.parse("--seconds", "90").slicesAt(Goals.RATE)).isEqualTo(90);
    assertThat(
            LoadBenchOptions.parse("--seconds", "20", "--goal-seconds", "0").slicesAt(Goals.RATE))
        .isEqualTo(20);
    assertThat(LoadBenchOptions.parse("--seconds", "5", "--goal-seconds", "30").slicesAt(500))
        .isEqualTo(5);
  }

  @Test
  void scrapesAtThePaceOfTheChartsPodMonitorByDefault() throws IOException {
    Path root = Path.of(System.getProperty("toolgate.root", "..")).toAbsolutePath().normalize();
    String values = Files.readString(root.resolve("charts/toolgate/values.yaml"));
    Matcher interval =
        Pattern.compile("(?s)podMonitor:.*?\\n\\s+interval: (\\d+)s\\n").matcher(values);

    assertThat(interval.find()).as("the chart's PodMonitor interval, in seconds").isTrue();
    assertThat(LoadBenchOptions.parse().scrapeSeconds())
        .isEqualTo(Integer.parseInt(interval.group(1)));
  }

  @ParameterizedTest
  @CsvSource({"--goal-seconds, -1", "--scrape-seconds, -15", "--reclaim-margin, -5"})
  void refusesANegativeCountNamingTheOptionAndTheValue(String option, String value) {
    assertThatThrownBy(() -> LoadBenchOptions.parse(option, value))
        .isInstanceOf(LoadBenchOptions.InvalidOptionException.class)
        .hasMessage(
            "Invalid value for option '"
                + option
                + "': must be a whole number of at least 0, was '"
                + value
                + "'");
  }

  @Test
  void refusesANumberThatIsNotOneNamingTheOptionAndTheValue() {
    assertThatThrownBy(() -> LoadBenchOptions.parse("--seconds", "ten"))
        .isInstanceOf(LoadBenchOptions.InvalidOptionException.class)
        .hasMessage(
            "Invalid value for option '--seconds': must be a whole number of at least 1, was 'ten'");
  }

  @Test
  void refusesANegativeSlowCallThresholdNamingIt() {
    assertThatThrownBy(() -> LoadBenchOptions.parse("--slow-calls", "-3"))
        .isInstanceOf(LoadBenchOptions.InvalidOptionException.class)
        .hasMessageContaining("--slow-calls")
        .hasMessageContaining("-3");
  }

  @Test
  void refusesZeroWhereAtLeastOneIsNeeded() {
    assertThatThrownBy(() -> LoadBenchOptions.parse("--in-flight", "0"))
        .hasMessage(
            "Invalid value for option '--in-flight': must be a whole number of at least 1, was '0'");
  }

  @Test
  void refusesANegativeCountOfCallsSayingThatZeroSkips() {
    assertThatThrownBy(() -> LoadBenchOptions.parse("--first-calls", "-1"))
        .hasMessage(
            "Invalid value for option '--first-calls': must be a whole number of at least 0 (0"
                + " skips), was '-1'");
  }

  @Test
  void refusesARateListWithABadRateNamingIt() {
    assertThatThrownBy(() -> LoadBenchOptions.parse("--rates", "500,,2000"))
        .hasMessageContaining("'' in '500,,2000' is not one");
    assertThatThrownBy(() -> LoadBenchOptions.parse("--rates", "0"))
        .hasMessageContaining("'0' in '0' is not one");
  }

  @Test
  void refusesAnUnknownTargetListingTheKnownOnes() {
    assertThatThrownBy(() -> LoadBenchOptions.parse("--targets", "direct,envoy"))
        .hasMessage(
            "Invalid value for option '--targets': unknown target 'envoy', expected some of "
                + "direct,nginx,vertx-relay,pass-through,full,full-api,full-local,control");
  }

  @Test
  void refusesAnAnswerFormatTheBackendDoesNotHaveListingThoseItHas() {
    assertThatThrownBy(() -> LoadBenchOptions.parse("--answers", "SSE"))
        .hasMessage("Invalid value for option '--answers': must be one of json, sse, was 'SSE'");
  }

  @Test
  void refusesAnArrivalSpacingItDoesNotKnowNamingTheOnesItDoes() {
    assertThatThrownBy(() -> LoadBenchOptions.parse("--arrivals", "bursty"))
        .isInstanceOf(LoadBenchOptions.InvalidOptionException.class)
        .hasMessage(
            "Invalid value for option '--arrivals': takes poisson or uniform, was 'bursty'");
  }

  @Test
  void refusesAnUnknownOptionAndOneWithoutItsValue() {
    assertThatThrownBy(() -> LoadBenchOptions.parse("--rate", "500"))
        .hasMessageContaining("Unknown options: '--rate'");
    assertThatThrownBy(() -> LoadBenchOptions.parse("--rates"))
        .hasMessage("Missing required parameter for option '--rates' (LIST)");
  }

  @Test
  void seesAHelpRequestAnywhereOnTheLine() {
    assertThat(LoadBenchOptions.wantsHelp("--rates", "500", "--help")).isTrue();
    assertThat(LoadBenchOptions.wantsHelp("-h")).isTrue();
    assertThat(LoadBenchOptions.wantsHelp("--rates", "500")).isFalse();
  }
}
