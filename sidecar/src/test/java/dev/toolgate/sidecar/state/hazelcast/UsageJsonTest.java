package dev.toolgate.sidecar.state.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.quota.RateWindow;
import dev.toolgate.policy.quota.Usage;
import org.junit.jupiter.api.Test;

class UsageJsonTest {

  @Test
  void keepsReadsCountedAheadThroughTheSharedValue() {
    int[] counts = new int[60];
    counts[7] = 3;
    Usage usage = new Usage(9, 1, 0, 0, 1_000_007_500L, new RateWindow(1_000_007, counts, 5));

    Usage read = UsageJson.usage(UsageJson.usage(usage));

    assertThat(read.rate().ahead()).isEqualTo(5);
    assertThat(read.rate().lastSecond()).isEqualTo(1_000_007);
    assertThat(read.rate().counts()).containsExactly(counts);
    assertThat(read.reads()).isEqualTo(9);
  }

  @Test
  void readsAValueWrittenWithoutReadsCountedAhead() {
    String older =
        "{\"r\":2,\"w\":0,\"xr\":0,\"xw\":0,\"seen\":5000,\"sec\":5,\"rate\":[0,0,0,0,0,2]}";

    Usage read = UsageJson.usage(older);

    assertThat(read.rate().ahead()).isZero();
    assertThat(read.reads()).isEqualTo(2);
    assertThat(UsageJson.usage(read)).as("written back as it was").doesNotContain("ahead");
  }
}
