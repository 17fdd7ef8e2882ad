package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicates;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Breaker news kept by the state service for its callers: the same maps and values as {@link
 * HazelcastCircuits}, every key prefixed with the caller's namespace, every value naming the
 * replica (a sidecar) that wrote it. Blocking: the service calls it on a worker.
 */
public final class CircuitBoard {

  private final IMap<String, String> open;
  private final IMap<String, String> probes;
  private final IMap<String, String> windows;

  CircuitBoard(HazelcastInstance hazelcast) {
    this.open = hazelcast.getMap(HazelcastCircuits.OPEN);
    this.probes = hazelcast.getMap(HazelcastCircuits.PROBES);
    this.windows = hazelcast.getMap(HazelcastCircuits.WINDOWS);
  }

  public void opened(String ns, String replica, String breaker, long openedAtMs, long untilMs) {
    String value =
        new JsonObject()
            .put("by", replica)
            .put("openedAt", openedAtMs)
            .put("until", untilMs)
            .encode();
    open.set(ns + "/" + breaker, value, Math.max(1, untilMs - openedAtMs), TimeUnit.MILLISECONDS);
  }

  public void closed(String ns, String breaker) {
    open.delete(ns + "/" + breaker);
  }

  /** A probe permit's lease, or null when all {@code permits} are taken. */
  public String acquireProbe(String ns, String replica, String breaker, int permits, long leaseMs) {
    for (int slot = 0; slot < permits; slot++) {
      String key = ns + "/" + breaker + "#" + slot;
      if (probes.putIfAbsent(key, replica, leaseMs, TimeUnit.MILLISECONDS) == null) {
        return key;
      }
    }
    return null;
  }

  /** Gives a permit back; a lease of another namespace is not this caller's to give. */
  public boolean releaseProbe(String ns, String lease) {
    if (!lease.startsWith(ns + "/")) {
      return false;
    }
    probes.delete(lease);
    return true;
  }

  public void publishWindow(
      String ns, String replica, String breaker, List<long[]> buckets, long ttlMs) {
    JsonArray list = new JsonArray();
    for (long[] b : buckets) {
      list.add(new JsonArray().add(b[0]).add(b[1]).add(b[2]).add(b[3]));
    }
    windows.set(
        ns + "/" + breaker + "|" + replica,
        new JsonObject().put("b", breaker).put("r", replica).put("buckets", list).encode(),
        Math.max(1_000, ttlMs),
        TimeUnit.MILLISECONDS);
  }

  /**
   * What the other replicas of namespace {@code ns} say: {@code open} (breaker to {@code
   * openedAt}/{@code until}) and {@code windows} (breaker to replica to buckets).
   */
  public JsonObject news(String ns, String replica, long nowMs) {
    String prefix = ns + "/";
    JsonObject openings = new JsonObject();
    for (Map.Entry<String, String> e : open.entrySet(Predicates.like("__key", prefix + "%"))) {
      JsonObject o = new JsonObject(e.getValue());
      if (!replica.equals(o.getString("by")) && o.getLong("until") > nowMs) {
        openings.put(
            e.getKey().substring(prefix.length()),
            new JsonObject()
                .put("openedAt", o.getLong("openedAt"))
                .put("until", o.getLong("until")));
      }
    }
    JsonObject peers = new JsonObject();
    for (Map.Entry<String, String> e : windows.entrySet(Predicates.like("__key", prefix + "%"))) {
      JsonObject o = new JsonObject(e.getValue());
      if (!replica.equals(o.getString("r"))) {
        JsonObject byReplica = peers.getJsonObject(o.getString("b"));
        if (byReplica == null) {
          byReplica = new JsonObject();
          peers.put(o.getString("b"), byReplica);
        }
        byReplica.put(o.getString("r"), o.getJsonArray("buckets"));
      }
    }
    return new JsonObject().put("open", openings).put("windows", peers);
  }
}
