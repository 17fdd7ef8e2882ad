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
  void aNewLeaseRemembersNoSecond() {
    assertThat(lease.idle(100)).isTrue();
    assertThat(lease.carry(100)).isNull();
  }

  @Test
  void aSessionSeenWithinThePauseKeepsAtLeastOneReadInHand() {
    lease.refilled(100, 0, 1, 0);

    assertThat(lease.wanted(104)).as("one read served in second 100").isEqualTo(1);
    assertThat(lease.wanted(101 + ReadLease.PAUSE_MEMORY_SECONDS)).as("forgotten").isZero();
  }

  @Test
  void aCarryReservesWhatTheLeaseLacksOfItsLastSecondsSize() {
    lease.refilled(100, 0, 1, 7);
    for (int i = 0; i < 5; i++) {
      lease.take(100);
    }

    assertThat(lease.carry(103))
        .as("six served in second 100, two kept: one handed out, four to reserve")
        .isEqualTo(new ReadLease.Carried(100, 2, 4));
    assertThat(lease.reserved(103, 4)).isEqualTo(ReadLease.Unused.NONE);
    for (int i = 0; i < 5; i++) {
      assertThat(lease.take(103)).as("read %d after the carried one", i + 1).isTrue();
    }
    assertThat(lease.take(103)).as("six in second 103, as in second 100").isFalse();
  }

  @Test
  void aSessionCalledEveryFewSecondsIsHandedAReadAtEachCall() {
    lease.refilled(100, 1, 1, 1);

    for (long second = 104; second <= 120; second += 4) {
      assertThat(lease.take(second)).isFalse();
      assertThat(lease.carry(second))
          .as("the read in hand since second %d, and one more to reserve", second - 4)
          .isEqualTo(new ReadLease.Carried(second - 4, 1, 1));
      assertThat(lease.reserved(second, 1)).isEqualTo(ReadLease.Unused.NONE);
    }
  }

  @Test
  void readsACarryReservedAfterTheLeaseMovedOnAreGivenBack() {
    lease.refilled(100, 4, 1, 4);
    lease.carry(103);
    lease.refilled(104, 2, 1, 2);

    assertThat(lease.reserved(103, 3)).isEqualTo(new ReadLease.Unused(103, 3));
    assertThat(lease.close(105))
        .as("the later refill's own reads are untouched")
        .isEqualTo(new ReadLease.Unused(104, 2));
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

    assertThat(lease.wanted(101))
        .as("12 served in second 100: the asking call and 11 more")
        .isEqualTo(11);
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
  void aSessionBackFromAPauseIsHandedOutWhatTheLeaseKeptInTheSecondItIsBackIn() {
    lease.refilled(100, 4, 1, 4);
    lease.take(100);

    assertThat(lease.take(103)).as("not a read of second 103").isFalse();
    assertThat(lease.carry(103))
        .as("the three kept, to move from second 100; they fill the lease")
        .isEqualTo(new ReadLease.Carried(100, 3, 0));
    assertThat(lease.take(103)).isTrue();
    assertThat(lease.take(103)).isTrue();
    assertThat(lease.take(103)).as("one carried and two taken: all three handed out").isFalse();
  }

  @Test
  void keepsItsReadsThroughAPauseNoLongerThanItRemembersTheSessionsSize() {
    ReadLease later = new ReadLease();
    lease.refilled(100, 4, 1, 4);
    later.refilled(100, 4, 1, 4);

    assertThat(lease.carry(101 + ReadLease.PAUSE_MEMORY_SECONDS)).isNull();
    assertThat(later.carry(100 + ReadLease.PAUSE_MEMORY_SECONDS)).isNotNull();
  }

  @Test
  void carriesOnceUntilTheMoveOfItsReadsHasEnded() {
    lease.refilled(100, 4, 1, 4);
    assertThat(lease.carry(103)).isNotNull();
    assertThat(lease.claimRefill(103_900))
        .as("no roll-ahead while the move runs")
        .isEqualTo(ReadLease.NO_REFILL);

    assertThat(lease.carry(105)).as("while the move runs").isNull();
    assertThat(lease.reserved(103, 0)).isEqualTo(ReadLease.Unused.NONE);
    assertThat(lease.carry(105)).isEqualTo(new ReadLease.Carried(103, 3, 0));
  }

  @Test
  void neverCarriesWhileARefillIsUnderWay() {
    lease.refilled(100, ReadLease.MAX_EXTRA, 1, ReadLease.MAX_EXTRA);
    for (int i = 0; i < ReadLease.MAX_EXTRA - ReadLease.TOP_UP_LEFT; i++) {
      lease.take(100);
    }
    assertThat(lease.claimTopUp(100)).isTrue();

    assertThat(lease.carry(102)).isNull();
  }

  @Test
  void isIdleOnceEmptyAndItsLastSecondTooOldToSizeTheNext() {
    lease.refilled(100, 1, 1, 1);

    assertThat(lease.idle(103)).as("still holds a read").isFalse();
    lease.close(103);
    assertThat(lease.idle(100 + ReadLease.PAUSE_MEMORY_SECONDS))
        .as("still sizes the next lease")
        .isFalse();
    assertThat(lease.idle(101 + ReadLease.PAUSE_MEMORY_SECONDS)).isTrue();
  }

  @Test
  void claimsOneTopUpWhenAFullSizedLeaseIsDownToItsTopUpMark() {
    lease.refilled(100, ReadLease.MAX_EXTRA, 1, ReadLease.MAX_EXTRA);
    for (int i = 0; i < ReadLease.MAX_EXTRA - ReadLease.TOP_UP_LEFT - 1; i++) {
      lease.take(100);
      assertThat(lease.claimTopUp(100))
          .as("more than the top-up mark left after %d reads", i + 1)
          .isFalse();
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
    assertThat(lease.toReserve(101))
        .as("a new second: sized to the 21 served, nothing held")
        .isEqualTo(20);
  }

  @Test
  void rollsAheadOnceInTheLastPartOfItsSecond() {
    lease.refilled(100, 64, 1, 64);
    lease.take(100);
    long lastPart = 100_000 + 1000 - ReadLease.ROLL_AHEAD_MS;

    assertThat(lease.claimReadsAhead(lastPart - 1)).as("too early in the second").isZero();
    assertThat(lease.claimReadsAhead(lastPart + 1_000)).as("not the lease's second").isZero();
    assertThat(lease.claimReadsAhead(lastPart)).isPositive();
    lease.topUpEnded();
    assertThat(lease.claimReadsAhead(lastPart + 10)).as("once per second").isZero();
  }

  @Test
  void aRollAheadIsSizedToTheSecondsPaceOverTheRestOfItAndTheNext() {
    lease.refilled(100, 16, 1, 16);
    for (int i = 0; i < 16; i++) {
      lease.take(100);
    }
    lease.refilled(100, 32, 0, 32);
    for (int i = 0; i < 23; i++) {
      lease.take(100);
    }

    assertThat(lease.claimReadsAhead(100_800))
        .as("40 served in 800 ms: 10 more this second, 50 the next")
        .isEqualTo(60);
  }

  @Test
  void aRollAheadEarlyInABurstKeepsTheSizeTheLeaseReached() {
    lease.refilled(100, 200, 1, 200);
    lease.take(100);

    assertThat(lease.claimReadsAhead(100_850)).as("2 served so far, a lease of 200").isEqualTo(200);
  }

  @Test
  void aRollAheadNeverReservesMoreThanTheLargestLease() {
    lease.refilled(100, ReadLease.MAX_EXTRA, 1, ReadLease.MAX_EXTRA);
    for (int i = 0; i < ReadLease.MAX_EXTRA; i++) {
      lease.take(100);
    }

    assertThat(lease.claimReadsAhead(100_900)).isEqualTo(ReadLease.MAX_EXTRA);
  }

  @Test
  void neverRollsAheadWhileATopUpIsUnderWay() {
    lease.refilled(100, ReadLease.MAX_EXTRA, 1, ReadLease.MAX_EXTRA);
    for (int i = 0; i < ReadLease.MAX_EXTRA - ReadLease.TOP_UP_LEFT; i++) {
      lease.take(100);
    }
    assertThat(lease.claimTopUp(100)).isTrue();

    assertThat(lease.claimReadsAhead(100_900)).isZero();
  }

  @Test
  void readsRolledAheadAreHandedOutInTheRestOfThisSecondAndInTheNext() {
    lease.refilled(100, 4, 1, 4);
    lease.take(100);

    ReadLease.Unused rest = lease.rolled(101, 10, 10);

    assertThat(rest).as("this second's rest goes back").isEqualTo(new ReadLease.Unused(100, 3));
    assertThat(lease.take(100)).as("counted ahead: served early").isTrue();
    assertThat(lease.take(101)).isTrue();
    assertThat(lease.take(102)).isFalse();
    assertThat(lease.take(99)).isFalse();
  }

  @Test
  void aFullLeaseRolledAheadAndDownToItsTopUpMarkBeforeItsSecondIsToppedUpAhead() {
    lease.refilled(100, ReadLease.MAX_EXTRA, 1, ReadLease.MAX_EXTRA);
    for (int i = 0; i < 200; i++) {
      lease.take(100);
    }
    assertThat(lease.claimReadsAhead(100_850)).isEqualTo(ReadLease.MAX_EXTRA);
    lease.rolled(101, ReadLease.MAX_EXTRA, ReadLease.MAX_EXTRA);
    lease.topUpEnded();
    for (int i = 0; i < ReadLease.MAX_EXTRA - ReadLease.TOP_UP_LEFT - 1; i++) {
      lease.take(100);
      assertThat(lease.claimReadsAhead(100_900)).as("more than the top-up mark left").isZero();
    }
    lease.take(100);

    int topUp = lease.claimReadsAhead(100_950);
    ReadLease.Unused back = lease.rolled(101, ReadLease.MAX_EXTRA, topUp);

    assertThat(topUp).isEqualTo(ReadLease.MAX_EXTRA - ReadLease.TOP_UP_LEFT);
    assertThat(back).isEqualTo(ReadLease.Unused.NONE);
    assertThat(lease.close(102))
        .as("full again, all counted in second 101")
        .isEqualTo(new ReadLease.Unused(101, ReadLease.MAX_EXTRA));
  }

  @Test
  void aSessionPausingRightAfterARollAheadComesBackAtItsPace() {
    lease.refilled(100, 100, 1, 100);
    for (int i = 0; i < 99; i++) {
      lease.take(100);
    }
    lease.rolled(101, ReadLease.MAX_EXTRA, lease.claimReadsAhead(100_800));
    lease.topUpEnded();
    lease.take(100);

    assertThat(lease.wanted(104))
        .as("100 reads in 800 ms, not the one read since the roll")
        .isEqualTo(124);
  }

  @Test
  void readsCountedInTheirOwnSecondAreNeverHandedOutTheSecondBefore() {
    lease.refilled(101, 4, 1, 4);

    assertThat(lease.take(100)).isFalse();
  }

  @Test
  void aRollAheadThatALaterSecondsRefillOvertookGivesItsReadsBack() {
    lease.refilled(102, 4, 1, 4);

    ReadLease.Unused back = lease.rolled(101, 10, 7);

    assertThat(back).isEqualTo(new ReadLease.Unused(101, 7));
    assertThat(lease.close(103))
        .as("the refill's own reads are untouched")
        .isEqualTo(new ReadLease.Unused(102, 4));
  }

  @Test
  void aRollAheadThatARefillInItsOwnSecondOvertookJoinsIt() {
    lease.refilled(101, 4, 1, 4);

    ReadLease.Unused back = lease.rolled(101, 10, 7);

    assertThat(back).isEqualTo(ReadLease.Unused.NONE);
    assertThat(lease.close(102)).isEqualTo(new ReadLease.Unused(101, 11));
  }
}
