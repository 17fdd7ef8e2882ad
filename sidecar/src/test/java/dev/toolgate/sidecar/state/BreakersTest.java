package dev.toolgate.sidecar.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.breaker.CircuitBreaker;
import dev.toolgate.policy.model.BreakerPolicy;
import dev.toolgate.policy.model.Effect;
import dev.toolgate.policy.model.HalfOpen;
import dev.toolgate.policy.model.ToolRule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BreakersTest {

  private static final BreakerPolicy POLICY =
      new BreakerPolicy(60, 20, 0.5, 0.7, 5000L, 30, new HalfOpen(3, 1), null);
  private static final ToolRule RULE =
      new ToolRule("get_job", "api", Effect.READ_ONLY, null, POLICY, null, null);

  /** Records what would go to the other replicas. */
  private static final class Published extends SharedCircuits.Alone {
    final List<List<long[]>> windows = new ArrayList<>();

    @Override
    public void publishWindow(String breaker, List<long[]> buckets, long ttlMs) {
      windows.add(buckets);
    }
  }

  private static void call(CircuitBreaker breaker, long nowMs, boolean failure) {
    breaker.onResult(breaker.tryAcquire(nowMs), nowMs, failure, 10);
  }

  @Test
  void publishesAWindowOnlyWhenItChanged() {
    Published shared = new Published();
    Breakers breakers = new Breakers((name, t) -> {}, shared, name -> {}, () -> {});
    CircuitBreaker breaker = breakers.of("api", RULE);
    long now = 1_000_000;

    breakers.publishWindows(now);
    assertThat(shared.windows).as("nothing to publish before the first call").isEmpty();

    call(breaker, now, false);
    breakers.publishWindows(now);
    breakers.publishWindows(now + 250);
    breakers.publishWindows(now + 500);
    assertThat(shared.windows).as("one publication for one change").hasSize(1);

    call(breaker, now + 600, true);
    breakers.publishWindows(now + 750);
    assertThat(shared.windows).hasSize(2);
    assertThat(shared.windows.get(1).get(0)).containsExactly(now / 1000, 2, 1, 0);
  }

  @Test
  void recordsAnOutcomeOnTheBreakerAndSaysItsWindowChanged() {
    int[] told = {0};
    Breakers breakers = new Breakers((name, t) -> {}, new Published(), name -> {}, () -> told[0]++);
    CircuitBreaker breaker = breakers.of("api", RULE);
    long now = 1_000_000;

    breakers.onResult(breaker, breaker.tryAcquire(now), now, true, 10);

    assertThat(told[0]).isEqualTo(1);
    assertThat(breaker.buckets(now)).containsExactly(new long[] {now / 1000, 1, 1, 0});
  }
}
