package dev.toolgate.sidecar.state;

import dev.toolgate.sidecar.mcp.JsonEncoding;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last successful result per tool and arguments, for the read-only degraded answer of an open
 * breaker. Bounded: the least recently used entries go first. Results are kept encoded (a few
 * times smaller than a tree of maps, and one array for the collector instead of a graph) and
 * decoded only when a fallback is served.
 */
public final class LastKnownResults {

  public static final int DEFAULT_CAPACITY = 10_000;

  /** A result and when it was fresh. */
  public record Known(byte[] encoded, Instant at) {
    /** A fresh copy of the result. */
    public JsonObject result() {
      return new JsonObject(Buffer.buffer(encoded));
    }
  }

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

  /**
   * Keeps a result.
   *
   * @param sizeHint the size of the message it came in, what its encoding starts as large as
   */
  public void remember(String key, JsonObject result, int sizeHint, Instant at) {
    Known known = new Known(JsonEncoding.bytes(result, sizeHint), at);
    synchronized (this) {
      results.put(key, known);
    }
  }

  public synchronized Known get(String key) {
    return results.get(key);
  }
}
