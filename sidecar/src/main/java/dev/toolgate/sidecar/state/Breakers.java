package dev.toolgate.sidecar.state;

import dev.toolgate.policy.breaker.CircuitBreaker;
import dev.toolgate.policy.breaker.Permission;
import dev.toolgate.policy.breaker.Transition;
import dev.toolgate.policy.model.BreakerPolicy;
import dev.toolgate.policy.model.BreakerScope;
import dev.toolgate.policy.model.ToolRule;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * The breakers of this sidecar, one per tool (or breaker group) and upstream, or per upstream. A
 * breaker whose policy changed in a reload is replaced by a fresh one.
 */
public final class Breakers {

  private record Entry(BreakerPolicy policy, CircuitBreaker breaker) {}

  private final Map<String, Entry> breakers = new ConcurrentHashMap<>();

  /** The buckets each breaker last published: an unchanged window is not sent again. */
  private final Map<String, java.util.List<long[]>> published = new ConcurrentHashMap<>();

  private final BiConsumer<String, Transition> onTransition;
  private final SharedCircuits shared;
  private final java.util.function.Consumer<String> onNewName;
  private final Runnable onOutcome;

  /**
   * @param onTransition told of every state change, with the breaker's name
   * @param shared where openings and closings are published to the other replicas
   * @param onNewName told once of each breaker name (to publish its metrics)
   * @param onOutcome told after each outcome recorded through {@link #onResult}: a window changed
   */
  public Breakers(
      BiConsumer<String, Transition> onTransition,
      SharedCircuits shared,
      java.util.function.Consumer<String> onNewName,
      Runnable onOutcome) {
    this.onTransition = onTransition;
    this.shared = shared;
    this.onNewName = onNewName;
    this.onOutcome = onOutcome;
  }

  /** Records an attempt's outcome on one of these breakers, then says its window changed. */
  public void onResult(
      CircuitBreaker breaker, Permission permission, long nowMs, boolean failure, long durationMs) {
    breaker.onResult(permission, nowMs, failure, durationMs);
    onOutcome.run();
  }

  /** The breaker now in place under a name (a reload may have replaced it), or null. */
  public CircuitBreaker get(String name) {
    Entry e = breakers.get(name);
    return e == null ? null : e.breaker();
  }

  /** The window of the breaker now in place under a name, for the peer-calls gauge; 0 if none. */
  public int windowSeconds(String name) {
    Entry e = breakers.get(name);
    return e == null ? 0 : e.policy().windowSeconds();
  }

  public SharedCircuits shared() {
    return shared;
  }

  /**
   * The breaker's name: {@code <upstream>/<tool or group>}, or {@code <upstream>} for a backend
   * scope.
   */
  public static String name(String upstream, ToolRule rule) {
    return rule.breaker().scope() == BreakerScope.BACKEND
        ? upstream
        : upstream + "/" + rule.breakerName();
  }

  /** The breaker for a rule that has one. */
  public CircuitBreaker of(String upstream, ToolRule rule) {
    String name = name(upstream, rule);
    boolean known = breakers.containsKey(name);
    CircuitBreaker breaker =
        breakers
            .compute(
                name,
                (n, e) ->
                    e != null && e.policy().equals(rule.breaker())
                        ? e
                        : new Entry(
                            rule.breaker(),
                            new CircuitBreaker(
                                rule.breaker(),
                                t -> {
                                  publish(n, rule.breaker(), t);
                                  onTransition.accept(n, t);
                                },
                                (from, now) ->
                                    shared.peerWindow(
                                        n, from, now, rule.breaker().windowSeconds()))))
            .breaker();
    if (!known) {
      onNewName.accept(name);
    }
    return breaker;
  }

  private void publish(String name, BreakerPolicy policy, Transition t) {
    if (t.to() == dev.toolgate.policy.breaker.CircuitState.OPEN
        && !t.reason().equals("opened by another replica")) {
      shared.opened(name, t.atMs(), t.atMs() + policy.openSeconds() * 1000L);
    } else if (t.to() == dev.toolgate.policy.breaker.CircuitState.CLOSED) {
      shared.closed(name);
    }
  }

  /**
   * Publishes the window of every breaker whose buckets changed since its last publication (called
   * a few hundred ms after an outcome): a quiet breaker costs no network operation and no event on
   * the other replicas, and its entry expires one window after its last change, as its newest
   * bucket does.
   */
  public void publishWindows(long nowMs) {
    breakers.forEach(
        (name, e) -> {
          java.util.List<long[]> buckets = e.breaker().buckets(nowMs);
          java.util.List<long[]> last = published.get(name);
          if (!buckets.isEmpty()
              && (last == null
                  || !java.util.Arrays.deepEquals(buckets.toArray(), last.toArray()))) {
            shared.publishWindow(name, buckets, e.policy().windowSeconds() * 1000L);
            published.put(name, buckets);
          }
        });
  }

  /** Every breaker by name, for metrics. */
  public Map<String, CircuitBreaker> all() {
    Map<String, CircuitBreaker> out = new java.util.TreeMap<>();
    breakers.forEach((n, e) -> out.put(n, e.breaker()));
    return out;
  }
}
