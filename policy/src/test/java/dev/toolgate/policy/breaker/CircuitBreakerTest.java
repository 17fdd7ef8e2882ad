package dev.toolgate.policy.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.BreakerPolicy;
import dev.toolgate.policy.model.HalfOpen;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CircuitBreakerTest {

  // seed 000: window 60 s, 20 calls, failure 0.5, slow 0.7 at 5 s, open 30 s, 3 probes, 1 at a time
  private static final BreakerPolicy SEED =
      new BreakerPolicy(60, 20, 0.5, 0.7, 5000L, 30, new HalfOpen(3, 1), null);

  private final List<Transition> transitions = new ArrayList<>();
  private final CircuitBreaker breaker = new CircuitBreaker(SEED, transitions::add);
  private long now = 1_000_000;

  private void calls(int n, boolean failure, long durationMs) {
    for (int i = 0; i < n; i++) {
      Permission p = breaker.tryAcquire(now);
      breaker.onResult(p, now, failure, durationMs);
    }
  }

  @Test
  void staysClosedBelowMinimumCallsWhateverTheFailures() {
    calls(19, true, 10);

    assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
  }

  @Test
  void opensAfterFailureRatioReached() {
    calls(10, false, 10);
    calls(10, true, 10);

    assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    assertThat(transitions)
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.to()).isEqualTo(CircuitState.OPEN);
              assertThat(t.reason()).isEqualTo("failure ratio 0.50 >= 0.50 over 20 calls");
            });
  }

  @Test
  void opensOnSlowCallsEvenWhenTheyAllSucceed() {
    calls(6, false, 10);
    calls(14, false, 6_000);

    assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    assertThat(transitions.get(0).reason()).startsWith("slow-call ratio 0.70");
  }

  @Test
  void forgetsOutcomesOlderThanTheWindow() {
    calls(15, true, 10);
    now += 61_000;
    calls(5, true, 10);

    assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    assertThat(breaker.window(now).calls()).isEqualTo(5);
  }

  @Test
  void refusesWhileOpenAndSaysWhenItWillProbe() {
    calls(20, true, 10);
    now += 10_000;

    Permission p = breaker.tryAcquire(now);

    assertThat(p.verdict()).isEqualTo(Permission.Verdict.REJECTED);
    assertThat(p.retryInMs()).isEqualTo(20_000);
  }

  @Test
  void admitsOneProbeAtATimeWhenHalfOpen() {
    calls(20, true, 10);
    now += 30_000;

    Permission first = breaker.tryAcquire(now);
    Permission second = breaker.tryAcquire(now);

    assertThat(first.verdict()).isEqualTo(Permission.Verdict.PROBE);
    assertThat(second.verdict()).isEqualTo(Permission.Verdict.REJECTED);
    assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
  }

  @Test
  void closesAfterTheProbesSucceedAndReopensOnAFailedProbe() {
    calls(20, true, 10);
    now += 30_000;
    for (int i = 0; i < 3; i++) {
      Permission probe = breaker.tryAcquire(now);
      breaker.onResult(probe, now, false, 10);
    }
    assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    assertThat(breaker.window(now).calls()).isZero();

    calls(20, true, 10);
    now += 30_000;
    Permission probe = breaker.tryAcquire(now);
    breaker.onResult(probe, now, true, 10);

    assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    assertThat(transitions)
        .extracting(Transition::to)
        .containsExactly(
            CircuitState.OPEN,
            CircuitState.HALF_OPEN,
            CircuitState.CLOSED,
            CircuitState.OPEN,
            CircuitState.HALF_OPEN,
            CircuitState.OPEN);
  }

  @Test
  void freesTheProbeSlotOfACancelledProbe() {
    calls(20, true, 10);
    now += 30_000;
    Permission probe = breaker.tryAcquire(now);

    breaker.release(probe);

    assertThat(breaker.tryAcquire(now).verdict()).isEqualTo(Permission.Verdict.PROBE);
  }

  @Test
  void opensWhenAPeerOpenedAndProbesWhenThePeerWould() {
    breaker.openFromPeer(now, now - 10_000);

    assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    assertThat(breaker.tryAcquire(now).retryInMs()).isEqualTo(20_000);
    assertThat(transitions.get(0).reason()).isEqualTo("opened by another replica");
  }

  @Test
  void opensOnFailuresSpreadOverReplicasThatNoneSawEnoughOfAlone() {
    CircuitBreaker withPeers =
        new CircuitBreaker(SEED, transitions::add, (from, to) -> new WindowSnapshot(12, 9, 0));
    for (int i = 0; i < 7; i++) {
      withPeers.onResult(withPeers.tryAcquire(now), now, i % 2 == 0, 10);
    }

    assertThat(withPeers.state()).isEqualTo(CircuitState.CLOSED);
    withPeers.onResult(withPeers.tryAcquire(now), now, true, 10);
    assertThat(withPeers.state()).isEqualTo(CircuitState.OPEN);
  }

  @Test
  void ignoresPeerOutcomesFromBeforeItLastClosed() {
    long[] asked = new long[1];
    CircuitBreaker withPeers =
        new CircuitBreaker(
            SEED,
            transitions::add,
            (from, to) -> {
              asked[0] = from;
              return new WindowSnapshot(0, 0, 0);
            });
    for (int i = 0; i < 20; i++) {
      withPeers.onResult(withPeers.tryAcquire(now), now, true, 10);
    }
    now += 30_000;
    for (int i = 0; i < 3; i++) {
      withPeers.onResult(withPeers.tryAcquire(now), now, false, 10);
    }
    long closedAt = now;
    now += 1_000;

    withPeers.onResult(withPeers.tryAcquire(now), now, false, 10);

    assertThat(asked[0]).isEqualTo(closedAt);
  }

  @Test
  void ignoresLateOutcomesOfCallsAdmittedBeforeItOpened() {
    Permission early = breaker.tryAcquire(now);
    calls(20, true, 10);

    breaker.onResult(early, now, false, 10);

    assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
  }
}
