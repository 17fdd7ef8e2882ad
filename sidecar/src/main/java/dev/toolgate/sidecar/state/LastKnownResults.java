package dev.toolgate.sidecar.state;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last successful result per tool and arguments, for the read-only degraded answer of an open
 * breaker. Bounded: the least recently used entries go first. Results are kept in the bytes of the
 * upstream message that carried them (a few times smaller than a tree of maps, one array for the
 * collector instead of a graph, and no encoding on the call's path) and decoded only when a
 * fallback is served.
 */
public final class LastKnownResults {

  public static final int DEFAULT_CAPACITY = 10_000;

  /** A result, in the JSON-RPC message that carried it, and when it was fresh. */
  public record Known(byte[] message, Instant at) {
    /** A fresh copy of the result. */
    public JsonObject result() {
      return new JsonObject(Buffer.buffer(message)).getJsonObject("result");
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

  /** Keeps the result of a JSON-RPC response message, as the upstream sent it. */
  public void remember(String key, Buffer message, Instant at) {
    Known known = new Known(message.getBytes(), at);
    synchronized (this) {
      results.put(key, known);
    }
  }

  public synchronized Known get(String key) {
    return results.get(key);
  }
}
