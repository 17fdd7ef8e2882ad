package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolgate.bench.LoadBench.SidecarCounters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScrapeScheduleTest {

  private static final long SECOND = 1_000_000_000L;

  /**
   * Which slices a schedule scrapes before ("b3") and after ("a3"), one slice every {@code
   * gapSeconds}.
   */
  private static List<String> scrapesOver(ScrapeSchedule schedule, int slices, int gapSeconds) {
    List<String> taken = new ArrayList<>();
    for (int slice = 0; slice < slices; slice++) {
      long start = slice * gapSeconds * SECOND;
      if (schedule.dueBefore(start)) {
        schedule.scraped(counters(slice, 0), start);
        taken.add("b" + slice);
      }
      if (schedule.dueAfter(slice)) {
        schedule.scraped(counters(slice, 1), start + SECOND);
        taken.add("a" + slice);
      }
    }
    return taken;
  }

  private static SidecarCounters counters(int slice, int half) {
    return new SidecarCounters(
        1_000 * (2 * slice + half), true, 2 * slice + half, 10 * slice, slice);
  }

  @Test
  void scrapesBeforeTheFirstSliceAfterTheLastAndBetweenOnlyOnceTheIntervalHasPassed() {
    // Four targets in turn: a target's slices start four seconds apart.
    ScrapeSchedule schedule = new ScrapeSchedule(Duration.ofSeconds(15), 12);

    assertThat(scrapesOver(schedule, 12, 4)).containsExactly("b0", "b4", "b8", "a11");
    assertThat(schedule.taken()).isEqualTo(4);
  }

  @Test
  void scrapesBeforeAndAfterEverySliceWhereTheIntervalIsZero() {
    ScrapeSchedule schedule = new ScrapeSchedule(Duration.ZERO, 3);

    assertThat(scrapesOver(schedule, 3, 4)).containsExactly("b0", "a0", "b1", "a1", "b2", "a2");
  }

  @Test
  void scrapesAroundASingleSliceOnce() {
    assertThat(scrapesOver(new ScrapeSchedule(Duration.ofSeconds(15), 1), 1, 4))
        .containsExactly("b0", "a0");
  }

  @Test
  void readsTheCountersGrowthFromTheFirstScrapeToTheLast() {
    ScrapeSchedule schedule = new ScrapeSchedule(Duration.ofSeconds(15), 12);
    scrapesOver(schedule, 12, 4);

    SidecarCounters grown = schedule.growth();

    // The first scrape read slice 0's "before", the last slice 11's "after".
    assertThat(grown.allocatedBytes()).isEqualTo(23_000);
    assertThat(grown.exactAllocation()).isTrue();
    assertThat(grown.gcMillis()).isEqualTo(23);
    assertThat(grown.compileMillis()).isEqualTo(110);
    assertThat(grown.quotaWaits()).isEqualTo(11);
  }

  @Test
  void countsTheScrapesWorkBetweenTheFirstReadingAndTheLast() {
    ScrapeSchedule spaced = new ScrapeSchedule(Duration.ofSeconds(15), 12);
    scrapesOver(spaced, 12, 4);
    ScrapeSchedule everySlice = new ScrapeSchedule(Duration.ZERO, 12);
    scrapesOver(everySlice, 12, 4);

    // Two halves at the ends make one; each of the two between is one more.
    assertThat(spaced.scrapesWithin()).isEqualTo(3);
    assertThat(everySlice.scrapesWithin()).isEqualTo(23);
  }

  @Test
  void readsNoGrowthBeforeTwoScrapesAndNoCompileTimeWhereTheSidecarReportsNone() {
    ScrapeSchedule schedule = new ScrapeSchedule(Duration.ofSeconds(15), 2);
    assertThat(schedule.growth()).isEqualTo(SidecarCounters.NONE);
    assertThat(schedule.scrapesWithin()).isZero();

    schedule.scraped(new SidecarCounters(0, true, 0, Double.NaN, Double.NaN), 0);
    schedule.scraped(new SidecarCounters(5_000, false, 3, Double.NaN, Double.NaN), SECOND);

    assertThat(schedule.growth().compileMillis()).isNaN();
    assertThat(schedule.growth().quotaWaits()).isNaN();
    assertThat(schedule.growth().exactAllocation())
        .as("exact only where both readings were")
        .isFalse();
  }

  @Test
  void refusesANegativeIntervalOrNoSliceNamingTheValue() {
    assertThatThrownBy(() -> new ScrapeSchedule(Duration.ofSeconds(-1), 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT-1S");
    assertThatThrownBy(() -> new ScrapeSchedule(Duration.ofSeconds(15), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 0");
  }

  @Test
  void describesItsPaceForTheRunsHeader() {
    assertThat(ScrapeSchedule.describe(Duration.ZERO))
        .isEqualTo("before and after each of its slices");
    assertThat(ScrapeSchedule.describe(Duration.ofSeconds(15)))
        .isEqualTo(
            "before its first slice of a rate, after its last and between two at most every 15 s");
  }
}
