package dev.toolgate.sidecar.state;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last successful result per tool and arguments, for the read-only degraded answer of an open
 * breaker. Results are kept in the bytes of the upstream message that carried them (a few times
 * smaller than a tree of maps, one array for the collector instead of a graph, and no encoding on
 * the call's path) and decoded only when a fallback is served.
 *
 * <p>Bounded by count and by bytes, the least recently used first out: an agent that reads with
 * ever new arguments would otherwise fill {@link #DEFAULT_CAPACITY} entries of results up to the
 * body limit each, far past the sidecar's 64 MiB heap. An entry over an eighth of the byte budget
 * is not kept, and drops the older result under its key (no longer the last known).
 */
public final class LastKnownResults {

  public static final int DEFAULT_CAPACITY = 10_000;

  /**
   * About an eighth of the heap's 32 MiB at start: the degraded answers of the reads most recently
   * made.
   */
  public static final long DEFAULT_MAX_BYTES = 4L * 1024 * 1024;

  /**
   * What an entry holds besides its message and key: the map's entry, the record, the instant,
   * headers.
   */
  public static final int ENTRY_OVERHEAD_BYTES = 160;

  /** A result, in the JSON-RPC message that carried it, and when it was fresh. */
  public record Known(byte[] message, Instant at) {
    /** A fresh copy of the result. */
    public JsonObject result() {
      return new JsonObject(Buffer.buffer(message)).getJsonObject("result");
    }
  }

  private final int capacity;
  private final long maxBytes;
  private final Map<String, Known> results = new LinkedHashMap<>(256, 0.75f, true);
  private long bytes;

  /**
   * @param capacity the most results kept
   * @param maxBytes the most heap its entries hold, estimated as {@link #weight} does
   * @throws IllegalArgumentException naming the value, if either is not positive
   */
  public LastKnownResults(int capacity, long maxBytes) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    if (maxBytes < 1) {
      throw new IllegalArgumentException("maxBytes must be at least 1, was " + maxBytes);
    }
    this.capacity = capacity;
    this.maxBytes = maxBytes;
  }

  /** Keeps the result of a JSON-RPC response message, as the upstream sent it. */
  public void remember(String key, Buffer message, Instant at) {
    long weight = weight(key, message.length());
    boolean keep = weight <= maxBytes / 8;
    Known known = keep ? new Known(message.getBytes(), at) : null;
    synchronized (this) {
      Known previous = keep ? results.put(key, known) : results.remove(key);
      if (previous != null) {
        bytes -= weight(key, previous.message().length);
      }
      if (keep) {
        bytes += weight;
        Iterator<Map.Entry<String, Known>> eldest = results.entrySet().iterator();
        while (results.size() > capacity || bytes > maxBytes) {
          Map.Entry<String, Known> e = eldest.next();
          bytes -= weight(e.getKey(), e.getValue().message().length);
          eldest.remove();
        }
      }
    }
  }

  /**
   * The heap an entry holds, estimated: its message, its key (one byte a character) and the rest.
   */
  public static long weight(String key, int messageBytes) {
    return messageBytes + key.length() + ENTRY_OVERHEAD_BYTES;
  }

  public synchronized Known get(String key) {
    return results.get(key);
  }

  /** The heap its entries hold, estimated as {@link #weight} does. */
  public synchronized long bytes() {
    return bytes;
  }
}
