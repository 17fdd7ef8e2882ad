package dev.toolgate.sidecar.state.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.model.SessionQuota;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadReadsTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final Quotas ROOMY =
      new Quotas(new SessionQuota(100_000, 10), null, 1_000, 60, null);

  private final WorkloadReads blocks = new WorkloadReads();

  @Test
  void aBlockIsATwentiethOfTheReadCeilingAtMostMaxBlockAndNoneForASmallCeiling() {
    assertThat(WorkloadReads.blockSize(Quotas.DEFAULT)).isEqualTo(100);
    assertThat(WorkloadReads.blockSize(ROOMY)).isEqualTo(WorkloadReads.MAX_BLOCK);
    assertThat(WorkloadReads.blockSize(new Quotas(new SessionQuota(1, 1), null, 1, null, null)))
        .isZero();
    assertThat(blocks.claimRefill("a", new Quotas(new SessionQuota(1, 1), null, 1, null, null)))
        .isZero();
  }

  @Test
  void handsOutExactlyTheReadsRefilledThenRefuses() {
    assertThat(blocks.take("a", ROOMY, T0)).isFalse();
    int wanted = blocks.claimRefill("a", ROOMY);
    blocks.refilled("a", 3, T0);

    assertThat(wanted).isEqualTo(WorkloadReads.MAX_BLOCK);
    assertThat(blocks.take("a", ROOMY, T0)).isTrue();
    assertThat(blocks.take("a", ROOMY, T0)).isTrue();
    assertThat(blocks.take("a", ROOMY, T0)).isTrue();
    assertThat(blocks.take("a", ROOMY, T0)).isFalse();
    assertThat(blocks.take("b", ROOMY, T0)).as("another workload's block").isFalse();
  }

  @Test
  void oneRefillAtATimeAndOnlyOnceHalfTheBlockIsUsed() {
    int first = blocks.claimRefill("a", ROOMY);
    assertThat(blocks.claimRefill("a", ROOMY)).as("while the first runs").isZero();
    blocks.refilled("a", first, T0);
    assertThat(blocks.claimRefill("a", ROOMY)).as("full").isZero();

    for (int i = 0; i < WorkloadReads.MAX_BLOCK / 2; i++) {
      blocks.take("a", ROOMY, T0);
    }

    assertThat(blocks.claimRefill("a", ROOMY)).isEqualTo(WorkloadReads.MAX_BLOCK / 2);
  }

  @Test
  void readsCountedBeforeTheWorkloadsIdleWindowAreDroppedNeverHandedOut() {
    blocks.claimRefill("a", ROOMY);
    blocks.refilled("a", 5, T0);

    assertThat(blocks.take("a", ROOMY, T0 + 60_000)).isFalse();
    assertThat(blocks.take("a", ROOMY, T0 + 1)).as("dropped, not kept for later").isFalse();
  }

  @Test
  void closingHandsBackWhatEachBlockHoldsAndAPutBackCounts() {
    blocks.claimRefill("a", ROOMY);
    blocks.refilled("a", 5, T0);
    blocks.take("a", ROOMY, T0);
    blocks.putBack("a");
    blocks.claimRefill("b", ROOMY);
    blocks.refilled("b", 2, T0);
    Map<String, Integer> back = new HashMap<>();

    blocks.closeAll(back::put);

    assertThat(back).containsExactlyInAnyOrderEntriesOf(Map.of("a", 5, "b", 2));
    assertThat(blocks.take("a", ROOMY, T0)).isFalse();
  }

  @Test
  void takingTheReadThatLeavesHalfTheBlockClaimsItsRefillOnceInTheSameStep() {
    blocks.claimRefill("a", ROOMY);
    blocks.refilled("a", WorkloadReads.MAX_BLOCK, T0);
    for (int i = 0; i < WorkloadReads.MAX_BLOCK / 2 - 1; i++) {
      assertThat(blocks.takeClaiming("a", ROOMY, T0)).isZero();
    }

    int claimed = blocks.takeClaiming("a", ROOMY, T0);

    assertThat(claimed).isEqualTo(WorkloadReads.MAX_BLOCK / 2);
    assertThat(blocks.takeClaiming("a", ROOMY, T0)).as("claimed already").isZero();
    assertThat(blocks.takeClaiming("b", ROOMY, T0)).isEqualTo(WorkloadReads.NONE);
  }
}
