package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryReclaimTest {

  private static final long MS = 1_000_000;

  @TempDir Path proc;

  private final AtomicLong clock = new AtomicLong(1_000 * MS);

  private void thread(String pid, String comm, long runNanos) throws IOException {
    Files.createDirectories(proc.resolve(pid));
    Files.writeString(proc.resolve(pid).resolve("comm"), comm + "\n");
    ran(pid, runNanos);
  }

  private void ran(String pid, long runNanos) throws IOException {
    Files.writeString(proc.resolve(pid).resolve("schedstat"), runNanos + " 155859032441 218642\n");
  }

  /** One sample {@code afterMs} after the last, the thread's run time then {@code runNanos}. */
  private void sampleAt(MemoryReclaim reclaim, long afterMs, long runNanos) throws IOException {
    ran("83", runNanos);
    clock.addAndGet(afterMs * MS);
    reclaim.sample();
  }

  @Test
  void watchesTheKernelThreadsNamedKdamondOrKswapdInProc() throws IOException {
    thread("1", "systemd", 5);
    thread("47", "kswapd0", 72_497);
    thread("83", "kdamond.0", 525_061_880_670L);
    thread("900", "java", 9);
    Files.createDirectories(proc.resolve("self"));

    MemoryReclaim reclaim = MemoryReclaim.find(proc, clock::get);

    assertThat(reclaim.names()).containsExactly("kswapd0", "kdamond.0");
    reclaim.sample();
    assertThat(reclaim.runNanos()).isEqualTo(72_497 + 525_061_880_670L);
  }

  @Test
  void watchesNothingWhereNoReclaimThreadRunsOrThereIsNoProc() throws IOException {
    thread("1", "systemd", 5);

    assertThat(MemoryReclaim.find(proc, clock::get).watches()).isFalse();
    assertThat(MemoryReclaim.find(proc.resolve("absent"), clock::get).watches()).isFalse();
  }

  @Test
  void makesOneStallOfTheSamplesThatFindTheRunTimeGrownStartingAtTheSampleBefore()
      throws IOException {
    thread("83", "kdamond.0", 0);
    MemoryReclaim reclaim = MemoryReclaim.find(proc, clock::get);
    reclaim.sample();
    long before = clock.get();

    sampleAt(reclaim, 4, 4 * MS);
    sampleAt(reclaim, 4, 8 * MS);
    sampleAt(reclaim, 4, 8 * MS);
    sampleAt(reclaim, 4, 11 * MS);
    sampleAt(reclaim, 4, 11 * MS);

    assertThat(reclaim.stalls().bursts())
        .containsExactly(new MemoryReclaim.Burst(before, before + 16 * MS, 11 * MS));
  }

  @Test
  void splitsBurstsFurtherApartThanTheGapAndKeepsOnlyThoseOfAStallsLength() throws IOException {
    thread("83", "kdamond.0", 0);
    MemoryReclaim reclaim = MemoryReclaim.find(proc, clock::get);
    reclaim.sample();

    sampleAt(reclaim, 4, 3 * MS);
    sampleAt(reclaim, 12, 3 * MS);
    sampleAt(reclaim, 4, 3 * MS + MS / 2);
    sampleAt(reclaim, 12, 3 * MS + MS / 2);
    long third = clock.get();
    sampleAt(reclaim, 4, 6 * MS);

    List<MemoryReclaim.Burst> stalls = reclaim.stalls().bursts();
    assertThat(stalls)
        .extracting(MemoryReclaim.Burst::cpuNanos)
        .as("the half-millisecond burst is no stall")
        .containsExactly(3 * MS, 5 * MS / 2);
    assertThat(stalls.get(1).startNanos()).isEqualTo(third);
  }

  @Test
  void countsAThreadWhoseFileCannotBeReadAtItsLastReadingAddingNoBurst() throws IOException {
    thread("83", "kdamond.0", 525 * 1_000 * MS);
    MemoryReclaim reclaim = MemoryReclaim.find(proc, clock::get);
    reclaim.sample();

    Files.writeString(proc.resolve("83").resolve("schedstat"), "");
    clock.addAndGet(4 * MS);
    reclaim.sample();
    sampleAt(reclaim, 4, 525 * 1_000 * MS + MS / 2);

    assertThat(reclaim.runNanos()).isEqualTo(525 * 1_000 * MS + MS / 2);
    assertThat(reclaim.stalls().bursts())
        .as("half a millisecond, not the thread's whole run time")
        .isEmpty();
  }

  @Test
  void findsATimeNearAStallWithinTheMarginOnEitherSideOrInsideIt() {
    MemoryReclaim.Stalls stalls =
        new MemoryReclaim.Stalls(
            List.of(
                new MemoryReclaim.Burst(100 * MS, 120 * MS, 17 * MS),
                new MemoryReclaim.Burst(640 * MS, 660 * MS, 18 * MS)));

    assertThat(stalls.near(95 * MS, 5 * MS)).isTrue();
    assertThat(stalls.near(110 * MS, 5 * MS)).isTrue();
    assertThat(stalls.near(125 * MS, 5 * MS)).isTrue();
    assertThat(stalls.near(126 * MS, 5 * MS)).isFalse();
    assertThat(stalls.near(94 * MS, 5 * MS)).isFalse();
    assertThat(stalls.near(400 * MS, 5 * MS)).isFalse();
    assertThat(stalls.near(636 * MS, 5 * MS)).isTrue();
    assertThat(stalls.between(0, 640 * MS)).hasSize(1);
  }

  @Test
  void readsTheRunTimeAsSchedstatsFirstField() {
    assertThat(MemoryReclaim.firstField("525061880670 155859032441 218642\n"))
        .isEqualTo(525_061_880_670L);
    assertThat(MemoryReclaim.firstField("42")).isEqualTo(42);
  }

  @Test
  void samplesOnItsOwnThreadOnceStartedAndStopsWhenClosed() throws IOException {
    thread("83", "kdamond.0", 1_000);
    MemoryReclaim reclaim = MemoryReclaim.find(proc, System::nanoTime).start();
    try {
      assertThat(reclaim.runNanos()).isEqualTo(1_000);
      ran("83", 50 * MS);
      await().atMost(Duration.ofSeconds(5)).until(() -> reclaim.runNanos() == 50 * MS);
      await().atMost(Duration.ofSeconds(5)).until(() -> !reclaim.stalls().bursts().isEmpty());
    } finally {
      reclaim.close();
    }
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().equals("memory-reclaim-sampler"));
  }
}
