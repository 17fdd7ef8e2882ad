package dev.toolgate.sidecar.state;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last successful result per tool and arguments, for the read-only degraded answer of an open
 * breaker. Bounded: the least recently used entries go first.
 */
public final class LastKnownResults {

  public static final int DEFAULT_CAPACITY = 10_000;

  /** A result and when it was fresh. */
  public record Known(JsonObject result, Instant at) {}

  private final Map<String, Known> results;

  public LastKnownResults(int capacity) {
    this.results = new LinkedHashMap<>(256, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Known> eldest) {
        return size() > capacity;
      }
    };
  }

  public synchronized void remember(String key, JsonObject result, Instant at) {
    results.put(key, new Known(result.copy(), at));
  }

  public synchronized Known get(String key) {
    return results.get(key);
  }
}
