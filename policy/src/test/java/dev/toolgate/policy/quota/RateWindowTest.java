package dev.toolgate.policy.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RateWindowTest {

  private static final long S = 1_000_000;
  private static final long NOW_MS = S * 1000 + 800;

  @Test
  void callsCountedAheadCountInTheMinuteThatEndsNow() {
    RateWindow w = RateWindow.empty(NOW_MS).count(NOW_MS, 3).countAhead(NOW_MS, 5);

    assertThat(w.inLastMinute(NOW_MS)).isEqualTo(8);
    assertThat(w.ahead()).isEqualTo(5);
  }

  @Test
  void countingAheadKeepsTheBucketOfFiftyNineSecondsAgo() {
    // The next second's bucket is that of second S - 59 until the window moves: counted there,
    // the reads would erase calls still inside the minute that ends now.
    long early = (S - 59) * 1000 + 100;
    RateWindow w = RateWindow.empty(early).count(early, 120);

    RateWindow ahead = w.countAhead(NOW_MS, 10);

    assertThat(ahead.inLastMinute(NOW_MS)).isEqualTo(130);
  }

  @Test
  void callsCountedAheadMoveIntoTheirBucketWhenTheirSecondComesAndLeaveAMinuteLater() {
    RateWindow w = RateWindow.empty(NOW_MS).countAhead(NOW_MS, 5);

    RateWindow next = w.count((S + 1) * 1000, 1);

    assertThat(next.ahead()).isZero();
    assertThat(next.lastSecond()).isEqualTo(S + 1);
    assertThat(next.inLastMinute((S + 1) * 1000)).isEqualTo(6);
    assertThat(w.inLastMinute((S + 60) * 1000)).isEqualTo(5);
    assertThat(w.inLastMinute((S + 61) * 1000)).isZero();
  }

  @Test
  void givingBackCallsCountedAheadTakesThemOffBeforeTheirSecondComes() {
    RateWindow w = RateWindow.empty(NOW_MS).count(NOW_MS, 2).countAhead(NOW_MS, 5);

    RateWindow back = w.uncount(S + 1, 3);

    assertThat(back.ahead()).isEqualTo(2);
    assertThat(back.inLastMinute(NOW_MS)).isEqualTo(4);
    assertThat(back.uncount(S + 1, 9).inLastMinute(NOW_MS)).isEqualTo(2);
  }

  @Test
  void countingAheadIntoASecondTheWindowHasReachedCountsInItsBucket() {
    // Another replica, its clock a little ahead, already counted in second S + 1.
    RateWindow w = RateWindow.empty(NOW_MS).count((S + 1) * 1000 + 5, 1);

    RateWindow ahead = w.countAhead(NOW_MS, 4);

    assertThat(ahead.ahead()).isZero();
    assertThat(ahead.inLastMinute((S + 1) * 1000)).isEqualTo(5);
  }

  @Test
  void refusesANegativeCountAhead() {
    assertThatThrownBy(() -> new RateWindow(S, new int[RateWindow.SECONDS], -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
  }
}
