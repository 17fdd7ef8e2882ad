package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.map.IMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Atomic read-modify-write on a Hazelcast map of strings by compare-and-set: read, compute, {@code
 * replace(key, old, new)} (or {@code putIfAbsent}), retry on a concurrent change. No class of
 * Toolgate has to live on the members, unlike an entry processor; the price is a retry under
 * contention on the same key. Blocking: run it on a worker thread.
 */
final class CasMap {

  /** The value to store (null: leave as is) and what to return. */
  record Step<T>(String next, T result) {}

  private static final int MAX_TRIES = 64;

  /** Keys whose last stored value a replica remembers; beyond that it forgets them all at once. */
  static final int MAX_REMEMBERED = 10_000;

  private CasMap() {}

  static <T> T update(IMap<String, String> map, String key, Function<String, Step<T>> change) {
    return update(map, null, key, change);
  }

  /**
   * The same, starting from the value this replica last stored under the key ({@code lastStored},
   * may be null): when no other replica wrote it since, which is the rule for a session served by
   * one sidecar, the update takes one round trip (the compare-and-set) instead of two.
   */
  static <T> T update(
      IMap<String, String> map,
      Map<String, String> lastStored,
      String key,
      Function<String, Step<T>> change) {
    String current = lastStored == null ? null : lastStored.get(key);
    boolean fresh = current == null;
    if (fresh) {
      current = map.get(key);
    }
    for (int i = 0; i < MAX_TRIES; i++) {
      Step<T> step = change.apply(current);
      if (step.next() == null || step.next().equals(current)) {
        if (!fresh) {
          // Nothing to store, so nothing confirmed the cached value: judge again on the stored one.
          current = map.get(key);
          fresh = true;
          continue;
        }
        return step.result();
      }
      boolean stored =
          current == null
              ? map.putIfAbsent(key, step.next()) == null
              : map.replace(key, current, step.next());
      if (stored) {
        if (lastStored != null) {
          if (lastStored.size() >= MAX_REMEMBERED) {
            lastStored.clear();
          }
          lastStored.put(key, step.next());
        }
        return step.result();
      }
      current = map.get(key);
      fresh = true;
    }
    throw new IllegalStateException("too much contention on shared key " + key);
  }
}
