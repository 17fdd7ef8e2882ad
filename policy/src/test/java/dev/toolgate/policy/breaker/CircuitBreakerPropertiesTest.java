package dev.toolgate.policy.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.BreakerPolicy;
import dev.toolgate.policy.model.HalfOpen;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class CircuitBreakerPropertiesTest {

  private static BreakerPolicy policy(int minimumCalls, int concurrentProbes) {
    return new BreakerPolicy(
        60,
        minimumCalls,
        0.5,
        1.0,
        60_000L,
        30,
        new HalfOpen(Math.max(3, concurrentProbes), concurrentProbes),
        null);
  }

  @Property
  void neverOpensBeforeMinimumCalls(
      @ForAll @IntRange(min = 1, max = 50) int minimumCalls,
      @ForAll("outcomes") List<Boolean> failures) {
    CircuitBreaker breaker = new CircuitBreaker(policy(minimumCalls, 1), t -> {});
    long now = 0;
    int recorded = 0;
    for (boolean failure : failures) {
      if (recorded >= minimumCalls - 1) {
        break;
      }
      breaker.onResult(breaker.tryAcquire(now), now, failure, 1);
      recorded++;
      now += 100;
    }
    assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
  }

  @Property
  void opensExactlyWhenTheFailureRatioIsReachedAfterMinimumCalls(
      @ForAll("outcomes") List<Boolean> failures) {
    CircuitBreaker breaker = new CircuitBreaker(policy(10, 1), t -> {});
    int calls = 0;
    int failed = 0;
    for (boolean failure : failures) {
      breaker.onResult(breaker.tryAcquire(0), 0, failure, 1);
      calls++;
      failed += failure ? 1 : 0;
      boolean shouldOpen = calls >= 10 && (double) failed / calls >= 0.5;
      if (shouldOpen) {
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        return;
      }
      assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }
  }

  @Property
  void neverAdmitsMoreProbesThanConcurrentProbes(
      @ForAll @IntRange(min = 1, max = 5) int concurrent,
      @ForAll @IntRange(min = 1, max = 20) int askers) {
    CircuitBreaker breaker = new CircuitBreaker(policy(1, concurrent), t -> {});
    breaker.onResult(breaker.tryAcquire(0), 0, true, 1);
    long probing = 30_000;
    long admitted = 0;
    for (int i = 0; i < askers; i++) {
      if (breaker.tryAcquire(probing).permitted()) {
        admitted++;
      }
    }
    assertThat(admitted).isEqualTo(Math.min(concurrent, askers));
  }

  @Provide
  Arbitrary<List<Boolean>> outcomes() {
    return Arbitraries.of(true, false).list().ofMinSize(1).ofMaxSize(200);
  }
}
