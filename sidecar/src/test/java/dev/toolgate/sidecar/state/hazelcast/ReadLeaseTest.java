package dev.toolgate.sidecar.state.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReadLeaseTest {

  private final ReadLease lease = new ReadLease();

  @Test
  void aNewSessionAsksForNothingBeyondItsCall() {
    assertThat(lease.wanted(100)).isZero();
    assertThat(lease.take(100)).isFalse();
  }

  @Test
  void doublesWhenItRunsOutWithinItsSecond() {
    lease.refilled(100, 0, 1, 0);
    int[] asked = new int[10];
    for (int i = 0; i < asked.length; i++) {
      asked[i] = lease.wanted(100);
      lease.refilled(100, asked[i], 1, asked[i]);
      while (lease.take(100)) {
        // hand out everything the refill reserved
      }
    }

    assertThat(asked).containsExactly(1, 2, 4, 8, 16, 32, 64, 128, 256, ReadLease.MAX_EXTRA);
  }

  @Test
  void isSizedToWhatThePreviousSecondServed() {
    lease.refilled(100, 0, 1, 11);
    for (int i = 0; i < 11; i++) {
      assertThat(lease.take(100)).isTrue();
    }

    assertThat(lease.wanted(101)).as("12 served in second 100: the asking call and 11 more").isEqualTo(11);
  }

  @Test
  void aSessionBackFromAPauseStartsAtItsLastSecondsSize() {
    lease.refilled(100, 0, 1, 11);
    while (lease.take(100)) {
      // 12 served in second 100
    }

    assertThat(lease.wanted(103)).as("back after two idle seconds").isEqualTo(11);
    assertThat(lease.wanted(100 + ReadLease.PAUSE_MEMORY_SECONDS)).isEqualTo(11);
  }

  @Test
  void aSessionBackAfterALongerPauseStartsOver() {
    lease.refilled(100, 0, 1, 11);
    while (lease.take(100)) {
      // 12 served in second 100
    }

    assertThat(lease.wanted(101 + ReadLease.PAUSE_MEMORY_SECONDS)).isZero();
  }

  @Test
  void handsOutReadsOnlyInTheSecondTheyWereCountedIn() {
    lease.refilled(100, 4, 1, 4);

    assertThat(lease.take(101)).isFalse();
    assertThat(lease.take(99)).isFalse();
    assertThat(lease.take(100)).isTrue();
  }

  @Test
  void givesUpTheRestOnlyOnceItsSecondHasEnded() {
    lease.refilled(100, 4, 1, 4);
    lease.take(100);

    assertThat(lease.close(100)).isEqualTo(ReadLease.Unused.NONE);
    assertThat(lease.holdsUnusedBefore(101)).isTrue();
    assertThat(lease.close(101)).isEqualTo(new ReadLease.Unused(100, 3));
    assertThat(lease.close(101)).isEqualTo(ReadLease.Unused.NONE);
    assertThat(lease.take(100)).as("given up: no longer handed out").isFalse();
  }

  @Test
  void isIdleOnceEmptyAndItsLastSecondTooOldToSizeTheNext() {
    lease.refilled(100, 1, 1, 1);

    assertThat(lease.idle(103)).as("still holds a read").isFalse();
    lease.close(103);
    assertThat(lease.idle(100 + ReadLease.PAUSE_MEMORY_SECONDS)).as("still sizes the next lease").isFalse();
    assertThat(lease.idle(101 + ReadLease.PAUSE_MEMORY_SECONDS)).isTrue();
  }

  @Test
  void claimsOneTopUpWhenAFullSizedLeaseIsHalfUsed() {
    lease.refilled(100, ReadLease.MAX_EXTRA, 1, ReadLease.MAX_EXTRA);
    for (int i = 0; i < ReadLease.MAX_EXTRA / 2 - 1; i++) {
      lease.take(100);
      assertThat(lease.claimTopUp(100)).as("more than half left after %d reads", i + 1).isFalse();
    }
    lease.take(100);

    assertThat(lease.claimTopUp(101)).as("not for another second").isFalse();
    assertThat(lease.claimTopUp(100)).isTrue();
    assertThat(lease.claimTopUp(100)).as("one at a time").isFalse();
    lease.topUpEnded();
    assertThat(lease.claimTopUp(100)).isTrue();
  }

  @Test
  void neverTopsUpALeaseSmallerThanTheLargest() {
    lease.refilled(100, 16, 1, 16);
    while (lease.take(100)) {
      assertThat(lease.claimTopUp(100)).isFalse();
    }
  }

  @Test
  void aTopUpFillsTheLeaseBackToItsSizeAndNoFurther() {
    lease.refilled(100, ReadLease.MAX_EXTRA, 1, ReadLease.MAX_EXTRA);
    for (int i = 0; i < 20; i++) {
      lease.take(100);
    }

    assertThat(lease.toReserve(100)).as("back to its size, with the 12 it holds").isEqualTo(20);
    assertThat(lease.toReserve(101)).as("a new second: sized to the 21 served, nothing held")
        .isEqualTo(20);
  }
}
