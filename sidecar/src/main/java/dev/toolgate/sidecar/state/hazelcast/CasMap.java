package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.map.IMap;
import java.util.function.Function;

/**
 * Atomic read-modify-write on a Hazelcast map of strings by compare-and-set: read, compute,
 * {@code replace(key, old, new)} (or {@code putIfAbsent}), retry on a concurrent change. No class
 * of Toolgate has to live on the members, unlike an entry processor; the price is a retry under
 * contention on the same key. Blocking: run it on a worker thread.
 */
final class CasMap {

  /** The value to store (null: leave as is) and what to return. */
  record Step<T>(String next, T result) {}

  private static final int MAX_TRIES = 64;

  private CasMap() {}

  static <T> T update(IMap<String, String> map, String key, Function<String, Step<T>> change) {
    for (int i = 0; i < MAX_TRIES; i++) {
      String current = map.get(key);
      Step<T> step = change.apply(current);
      if (step.next() == null || step.next().equals(current)) {
        return step.result();
      }
      boolean stored = current == null
          ? map.putIfAbsent(key, step.next()) == null
          : map.replace(key, current, step.next());
      if (stored) {
        return step.result();
      }
    }
    throw new IllegalStateException("too much contention on shared key " + key);
  }
}
