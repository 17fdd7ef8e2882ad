package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlowCallsTest {

  @TempDir Path dir;

  /** The wall clock at 1,000,000 ms while the monotonic clock reads 50 ms. */
  private SlowCalls over3ms() {
    return new SlowCalls(dir.resolve("slow.tsv"), 3_000, () -> 1_000_000L, () -> 50_000_000L);
  }

  @Test
  void writesTheCallsOverTheThresholdWithTheirPhaseTargetAndWallClockDueTime() throws Exception {
    SlowCalls slow = over3ms();
    slow.phase("rate 1000");

    slow.record("full policy", 30_000_000L, 3_001);
    slow.record("full policy", 31_000_000L, 3_000);
    slow.phase("saturation");
    slow.record("nginx", 45_000_000L, 12_500);

    assertThat(slow.count()).isEqualTo(2);
    assertThat(Files.readAllLines(slow.write()))
        .containsExactly(
            "phase\ttarget\tdue_epoch_ms\tlatency_us",
            "rate 1000\tfull policy\t999980\t3001",
            "saturation\tnginx\t999995\t12500");
  }

  @Test
  void writesTheReclaimsStallsBesideTheCallsOnTheSameWallClock() throws Exception {
    SlowCalls slow = over3ms();

    slow.stall(new MemoryReclaim.Burst(10_000_000L, 31_000_000L, 17_250_000L));
    Path calls = slow.write();

    assertThat(Files.readAllLines(calls.resolveSibling(SlowCalls.STALLS_FILE)))
        .containsExactly("start_epoch_ms\tend_epoch_ms\tcpu_us", "999960\t999981\t17250");
  }

  @Test
  void offRecordsNothingAndWritesNoFile() throws Exception {
    SlowCalls.OFF.record("direct", 0, Long.MAX_VALUE - 1);
    SlowCalls.OFF.stall(new MemoryReclaim.Burst(0, 1, 2));

    assertThat(SlowCalls.OFF.count()).isZero();
    assertThat(SlowCalls.OFF.write()).isNull();
    assertThat(SlowCalls.over(0, dir.resolve("x.tsv"))).isSameAs(SlowCalls.OFF);
  }

  @Test
  void refusesANegativeThreshold() {
    assertThatThrownBy(() -> new SlowCalls(dir.resolve("x.tsv"), -1, () -> 0L, () -> 0L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
  }
}
