package dev.toolgate.sidecar.state.api;

import dev.toolgate.policy.breaker.WindowSnapshot;
import dev.toolgate.sidecar.state.PeerWindows;
import dev.toolgate.sidecar.state.SharedCircuits;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Breaker news through the state service: this replica's openings, windows and probe permits go to
 * it as they happen; the other replicas' come back every {@value #NEWS_MS} ms, so the hot path
 * reads memory and an opening reaches every replica of the namespace within a second.
 */
final class ApiCircuits implements SharedCircuits {

  private static final Logger LOG = LoggerFactory.getLogger(ApiCircuits.class);
  static final long NEWS_MS = 250;

  private record Opening(long openedAtMs, long untilMs) {}

  private final Vertx vertx;
  private final StateApiClient client;
  private final String replica = UUID.randomUUID().toString();
  private final long timer;
  private volatile Map<String, Opening> known = Map.of();
  private volatile Map<String, Map<String, long[][]>> peerBuckets = Map.of();

  ApiCircuits(Vertx vertx, StateApiClient client) {
    this.vertx = vertx;
    this.client = client;
    this.timer = vertx.setPeriodic(0, NEWS_MS, t -> news());
  }

  private void news() {
    client
        .post(StateWire.NEWS, new JsonObject().put("replica", replica))
        .onSuccess(this::remember)
        .onFailure(e -> LOG.debug("no breaker news from the state service: {}", e.toString()));
  }

  private void remember(JsonObject news) {
    Map<String, Opening> openings = new ConcurrentHashMap<>();
    JsonObject open = news.getJsonObject("open", new JsonObject());
    for (String breaker : open.fieldNames()) {
      JsonObject o = open.getJsonObject(breaker);
      openings.put(breaker, new Opening(o.getLong("openedAt"), o.getLong("until")));
    }
    Map<String, Map<String, long[][]>> windows = new ConcurrentHashMap<>();
    JsonObject all = news.getJsonObject("windows", new JsonObject());
    for (String breaker : all.fieldNames()) {
      JsonObject byReplica = all.getJsonObject(breaker);
      Map<String, long[][]> peers = new ConcurrentHashMap<>();
      for (String peer : byReplica.fieldNames()) {
        JsonArray list = byReplica.getJsonArray(peer);
        long[][] buckets = new long[list.size()][];
        for (int i = 0; i < buckets.length; i++) {
          JsonArray b = list.getJsonArray(i);
          buckets[i] = new long[] {b.getLong(0), b.getLong(1), b.getLong(2), b.getLong(3)};
        }
        peers.put(peer, buckets);
      }
      windows.put(breaker, peers);
    }
    known = openings;
    peerBuckets = windows;
  }

  private void send(String path, JsonObject body) {
    client
        .post(path, body.put("replica", replica))
        .onFailure(e -> LOG.debug("breaker news not sent ({}): {}", path, e.toString()));
  }

  @Override
  public void opened(String breaker, long openedAtMs, long untilMs) {
    send(
        StateWire.OPENED,
        new JsonObject()
            .put("breaker", breaker)
            .put("openedAtMs", openedAtMs)
            .put("untilMs", untilMs));
  }

  @Override
  public void closed(String breaker) {
    send(StateWire.CLOSED, new JsonObject().put("breaker", breaker));
  }

  @Override
  public long peerOpenedAt(String breaker, long nowMs) {
    Opening o = known.get(breaker);
    return o != null && o.untilMs() > nowMs ? o.openedAtMs() : 0;
  }

  @Override
  public Future<String> acquireProbe(String breaker, int permits, long leaseMs) {
    return client
        .post(
            StateWire.PROBE,
            new JsonObject()
                .put("replica", replica)
                .put("breaker", breaker)
                .put("permits", permits)
                .put("leaseMs", leaseMs))
        .map(json -> json.getString("lease"));
  }

  @Override
  public void releaseProbe(String lease) {
    if (lease != null) {
      send(StateWire.RELEASE_PROBE, new JsonObject().put("lease", lease));
    }
  }

  @Override
  public void publishWindow(String breaker, List<long[]> buckets, long ttlMs) {
    JsonArray list = new JsonArray();
    for (long[] b : buckets) {
      list.add(new JsonArray().add(b[0]).add(b[1]).add(b[2]).add(b[3]));
    }
    send(
        StateWire.WINDOW,
        new JsonObject().put("breaker", breaker).put("buckets", list).put("ttlMs", ttlMs));
  }

  @Override
  public WindowSnapshot peerWindow(String breaker, long fromMs, long nowMs, int windowSeconds) {
    return PeerWindows.snapshot(peerBuckets.get(breaker), fromMs, nowMs, windowSeconds);
  }

  void close() {
    vertx.cancelTimer(timer);
  }
}
