package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import dev.toolgate.sidecar.state.SharedCircuits;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Breaker news through Hazelcast. Openings go into a map whose entry listener keeps a local copy,
 * so the hot path reads memory, not the network, and an opening reaches every replica as fast as
 * the event (milliseconds on loopback). Probe permits are map entries taken with {@code
 * putIfAbsent} and a lease, so a crashed replica's permit expires.
 */
public final class HazelcastCircuits implements SharedCircuits {

  public static final String OPEN = "toolgate.breakers.open";
  public static final String PROBES = "toolgate.breakers.probes";
  public static final String WINDOWS = "toolgate.breakers.windows";

  private record Opening(long openedAtMs, long untilMs) {}

  private final Vertx vertx;
  private final IMap<String, String> open;
  private final IMap<String, String> probes;
  private final String replica = UUID.randomUUID().toString();
  private final Map<String, Opening> known = new ConcurrentHashMap<>();
  private final IMap<String, String> windows;

  /** Other replicas' buckets: breaker -> replica -> [second, calls, failures, slow][]. */
  private final Map<String, Map<String, long[][]>> peerBuckets = new ConcurrentHashMap<>();

  public HazelcastCircuits(Vertx vertx, HazelcastInstance hazelcast) {
    this.vertx = vertx;
    this.open = hazelcast.getMap(OPEN);
    this.probes = hazelcast.getMap(PROBES);
    open.addEntryListener(new Listener(), true);
    open.forEach((k, v) -> remember(k, v));
    this.windows = hazelcast.getMap(WINDOWS);
    windows.addEntryListener(new WindowListener(), true);
    // Windows are published when they change, not periodically: read what is there already.
    windows.values().forEach(this::rememberWindow);
  }

  private final class WindowListener
      implements EntryAddedListener<String, String>,
          EntryUpdatedListener<String, String>,
          EntryRemovedListener<String, String>,
          com.hazelcast.map.listener.EntryExpiredListener<String, String> {
    @Override
    public void entryAdded(EntryEvent<String, String> event) {
      rememberWindow(event.getValue());
    }

    @Override
    public void entryUpdated(EntryEvent<String, String> event) {
      rememberWindow(event.getValue());
    }

    @Override
    public void entryRemoved(EntryEvent<String, String> event) {
      forgetWindow(event.getKey());
    }

    @Override
    public void entryExpired(EntryEvent<String, String> event) {
      forgetWindow(event.getKey());
    }
  }

  private void rememberWindow(String json) {
    JsonObject o = new JsonObject(json);
    String from = o.getString("r");
    if (replica.equals(from)) {
      return;
    }
    io.vertx.core.json.JsonArray list = o.getJsonArray("buckets");
    long[][] buckets = new long[list.size()][];
    for (int i = 0; i < buckets.length; i++) {
      io.vertx.core.json.JsonArray b = list.getJsonArray(i);
      buckets[i] = new long[] {b.getLong(0), b.getLong(1), b.getLong(2), b.getLong(3)};
    }
    peerBuckets
        .computeIfAbsent(o.getString("b"), k -> new ConcurrentHashMap<>())
        .put(from, buckets);
  }

  private void forgetWindow(String key) {
    int bar = key.lastIndexOf('|');
    if (bar > 0) {
      Map<String, long[][]> byReplica = peerBuckets.get(key.substring(0, bar));
      if (byReplica != null) {
        byReplica.remove(key.substring(bar + 1));
      }
    }
  }

  @Override
  public void publishWindow(String breaker, java.util.List<long[]> buckets, long ttlMs) {
    io.vertx.core.json.JsonArray list = new io.vertx.core.json.JsonArray();
    for (long[] b : buckets) {
      list.add(new io.vertx.core.json.JsonArray().add(b[0]).add(b[1]).add(b[2]).add(b[3]));
    }
    String value =
        new JsonObject().put("b", breaker).put("r", replica).put("buckets", list).encode();
    try {
      windows.setAsync(
          breaker + "|" + replica, value, Math.max(1_000, ttlMs), TimeUnit.MILLISECONDS);
    } catch (RuntimeException offline) {
      // The cluster is away (the client reconnects in the background): the other replicas miss
      // this window; the next change publishes a newer one.
    }
  }

  @Override
  public dev.toolgate.policy.breaker.WindowSnapshot peerWindow(
      String breaker, long fromMs, long nowMs, int windowSeconds) {
    return dev.toolgate.sidecar.state.PeerWindows.snapshot(
        peerBuckets.get(breaker), fromMs, nowMs, windowSeconds);
  }

  private final class Listener
      implements EntryAddedListener<String, String>,
          EntryUpdatedListener<String, String>,
          EntryRemovedListener<String, String> {
    @Override
    public void entryAdded(EntryEvent<String, String> event) {
      remember(event.getKey(), event.getValue());
    }

    @Override
    public void entryUpdated(EntryEvent<String, String> event) {
      remember(event.getKey(), event.getValue());
    }

    @Override
    public void entryRemoved(EntryEvent<String, String> event) {
      known.remove(event.getKey());
    }
  }

  private void remember(String breaker, String json) {
    JsonObject o = new JsonObject(json);
    if (!replica.equals(o.getString("by"))) {
      known.put(breaker, new Opening(o.getLong("openedAt"), o.getLong("until")));
    }
  }

  @Override
  public void opened(String breaker, long openedAtMs, long untilMs) {
    String value =
        new JsonObject()
            .put("by", replica)
            .put("openedAt", openedAtMs)
            .put("until", untilMs)
            .encode();
    long ttl = Math.max(1, untilMs - openedAtMs);
    open.setAsync(breaker, value, ttl, TimeUnit.MILLISECONDS);
  }

  @Override
  public void closed(String breaker) {
    open.deleteAsync(breaker);
  }

  @Override
  public long peerOpenedAt(String breaker, long nowMs) {
    Opening o = known.get(breaker);
    return o != null && o.untilMs() > nowMs ? o.openedAtMs() : 0;
  }

  @Override
  public Future<String> acquireProbe(String breaker, int permits, long leaseMs) {
    return vertx.executeBlocking(
        () -> {
          for (int slot = 0; slot < permits; slot++) {
            String key = breaker + "#" + slot;
            if (probes.putIfAbsent(key, replica, leaseMs, TimeUnit.MILLISECONDS) == null) {
              return key;
            }
          }
          return null;
        },
        false);
  }

  @Override
  public void releaseProbe(String lease) {
    if (lease != null) {
      probes.deleteAsync(lease);
    }
  }
}
