package dev.toolgate.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's goals table ("The goals over every default run") counts what
 * {@code bench/earlier-runs.md}'s table of every default run holds, one row a run: a reading in bold
 * missed its goal, one marked "not resolved" was not met either, and a resident reading with no
 * peak ("—") comes from before the peak was read.
 */
class ReadmeGoalCountsTest {

  private static final Path ROOT = Path.of(System.getProperty("toolgate.root", "../..")).toAbsolutePath().normalize();
  private static final String RUNS_HEADING = "## Every default run's goals, one row each";
  /** The README rows, by how each begins, in the order of the runs table's goal columns. */
  private static final List<String> GOAL_ROWS = List.of("| added p50 ≤ 0.5 ms", "| added p99 ≤ 2 ms",
      "| pass-through's added p50 ≤ 2× nginx's", "| saturation ≥ 0.5 of nginx's", "| resident ≤ 128 MiB",
      "| ready ≤ 2 s");
  private static final int FIRST_GOAL_COLUMN = 2;
  private static final int P99 = 1;
  private static final int RESIDENT = 4;
  private static final Pattern CELL = Pattern.compile("\\|([^|]*)");

  @Test
  void countsEveryGoalOverTheRunsTableRows() throws IOException {
    List<List<String>> runs = runs();
    String readme = Files.readString(ROOT.resolve("README.md"));
    long[] met = metCounts(runs);
    for (int goal = 0; goal < GOAL_ROWS.size(); goal++) {
      assertThat(cell(readme, GOAL_ROWS.get(goal)))
          .as("the README's count for %s", GOAL_ROWS.get(goal))
          .startsWith(met[goal] + " of " + runs.size());
    }
  }

  @Test
  void countsTheP99sNotResolvedAndTheResidentSetsSinceThePeakIsRead() throws IOException {
    List<List<String>> runs = runs();
    String readme = Files.readString(ROOT.resolve("README.md"));
    long notResolved = runs.stream().filter(r -> r.get(FIRST_GOAL_COLUMN + P99).contains("not resolved")).count();
    assertThat(cell(readme, GOAL_ROWS.get(P99))).contains("(" + notResolved + " not resolved)");

    List<String> withPeak = runs.stream().map(r -> r.get(FIRST_GOAL_COLUMN + RESIDENT))
        .filter(c -> !c.contains("/ —")).toList();
    long peakMet = withPeak.stream().filter(ReadmeGoalCountsTest::met).count();
    assertThat(cell(readme, GOAL_ROWS.get(RESIDENT)))
        .contains(peakMet + " of the " + withPeak.size() + " since the peak is read");
  }

  @Test
  void statusRowQuotesTheSameCounts() throws IOException {
    List<List<String>> runs = runs();
    String readme = Files.readString(ROOT.resolve("README.md"));
    int at = readme.indexOf("\n| Performance:");
    assertThat(at).as("README.md's Status table has a Performance row").isNotNegative();
    String status = readme.substring(at + 1, readme.indexOf('\n', at + 1));
    long[] met = metCounts(runs);
    int total = runs.size();
    assertThat(status).contains("added p50 ≤ 0.5 ms in " + met[0] + " ", "ready ≤ 2 s in " + met[5] + " ",
        "(" + met[1] + " of " + total, "(" + met[2] + " of " + total, "(" + met[3] + " of " + total,
        "(" + met[4] + " of " + total);
  }

  /** How many runs met each goal, in the order of {@link #GOAL_ROWS}. */
  private static long[] metCounts(List<List<String>> runs) {
    long[] met = new long[GOAL_ROWS.size()];
    for (int goal = 0; goal < met.length; goal++) {
      int column = FIRST_GOAL_COLUMN + goal;
      met[goal] = runs.stream().filter(r -> met(r.get(column))).count();
    }
    return met;
  }

  private static boolean met(String reading) {
    return !reading.contains("**") && !reading.contains("not resolved");
  }

  /** The second cell of the README row that begins with {@code start}. */
  private static String cell(String readme, String start) {
    int at = readme.indexOf("\n" + start);
    assertThat(at).as("README.md has a row beginning %s", start).isNotNegative();
    String row = readme.substring(at + 1, readme.indexOf('\n', at + 1));
    return cells(row).get(1);
  }

  /** The rows of earlier-runs.md's table of every default run, each split into its cells. */
  private static List<List<String>> runs() throws IOException {
    String text = Files.readString(ROOT.resolve("bench/earlier-runs.md"));
    int start = text.indexOf(RUNS_HEADING);
    assertThat(start).as("bench/earlier-runs.md has the section %s", RUNS_HEADING).isNotNegative();
    int end = text.indexOf("\n## ", start + 1);
    List<List<String>> rows = new ArrayList<>();
    for (String line : text.substring(start, end < 0 ? text.length() : end).split("\n")) {
      if (line.startsWith("| ") && !line.startsWith("| VM ") && !line.startsWith("| ---")) {
        rows.add(cells(line));
      }
    }
    assertThat(rows).as("rows of the runs table").isNotEmpty()
        .allSatisfy(r -> assertThat(r).as("a run's row has its eight cells").hasSize(8));
    return rows;
  }


  private static List<String> cells(String row) {
    Matcher m = CELL.matcher(row.strip());
    List<String> cells = new ArrayList<>();
    while (m.find()) {
      cells.add(m.group(1).strip());
    }
    if (!cells.isEmpty() && cells.get(cells.size() - 1).isEmpty()) {
      cells.remove(cells.size() - 1);
    }
    return cells;
  }
}
