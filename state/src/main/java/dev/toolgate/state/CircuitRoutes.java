package dev.toolgate.state;

import dev.toolgate.sidecar.state.api.StateWire;
import dev.toolgate.sidecar.state.hazelcast.CircuitBoard;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Breaker news between the replicas of one namespace: openings, half-open probe permits and window
 * buckets, each scoped by the caller's namespace, so one namespace's breakers never open another's.
 */
final class CircuitRoutes {

  static final Set<String> PATHS =
      Set.of(
          StateWire.OPENED,
          StateWire.CLOSED,
          StateWire.PROBE,
          StateWire.RELEASE_PROBE,
          StateWire.WINDOW,
          StateWire.NEWS);

  /** The most permits or buckets a call may name. */
  private static final int MAX_ITEMS = 3_600;

  private final Vertx vertx;
  private final CircuitBoard board;
  private final Clock clock;

  CircuitRoutes(Vertx vertx, CircuitBoard board, Clock clock) {
    this.vertx = vertx;
    this.board = board;
    this.clock = clock;
  }

  Future<JsonObject> call(String path, String ns, JsonObject b) {
    return switch (path) {
      case StateWire.OPENED -> {
        String replica = Fields.name(b, "replica");
        String breaker = Fields.name(b, "breaker");
        long openedAt = Fields.millis(b, "openedAtMs");
        long until = Fields.millis(b, "untilMs");
        yield blocking(() -> board.opened(ns, replica, breaker, openedAt, until));
      }
      case StateWire.CLOSED -> {
        String breaker = Fields.name(b, "breaker");
        yield blocking(() -> board.closed(ns, breaker));
      }
      case StateWire.PROBE -> {
        String replica = Fields.name(b, "replica");
        String breaker = Fields.name(b, "breaker");
        int permits = bounded(Fields.count(b, "permits"));
        long lease = Fields.millis(b, "leaseMs");
        yield vertx.executeBlocking(
            () ->
                new JsonObject()
                    .put("lease", board.acquireProbe(ns, replica, breaker, permits, lease)));
      }
      case StateWire.RELEASE_PROBE -> {
        String lease = Fields.name(b, "lease");
        yield vertx
            .executeBlocking(() -> board.releaseProbe(ns, lease))
            .compose(
                mine ->
                    mine
                        ? Future.succeededFuture(new JsonObject())
                        : Future.failedFuture(
                            new StateServer.BadRequest(
                                "lease: not one of namespace " + ns + "'s")));
      }
      case StateWire.WINDOW -> {
        String replica = Fields.name(b, "replica");
        String breaker = Fields.name(b, "breaker");
        List<long[]> buckets = buckets(b.getJsonArray("buckets"));
        long ttl = Fields.millis(b, "ttlMs");
        yield blocking(() -> board.publishWindow(ns, replica, breaker, buckets, ttl));
      }
      case StateWire.NEWS -> {
        String replica = Fields.name(b, "replica");
        yield vertx.executeBlocking(() -> board.news(ns, replica, clock.millis()));
      }
      default -> Future.failedFuture(new StateServer.BadRequest("no such call: " + path));
    };
  }

  private Future<JsonObject> blocking(Runnable work) {
    return vertx.executeBlocking(
        () -> {
          work.run();
          return new JsonObject();
        });
  }

  private static int bounded(int n) {
    if (n < 1 || n > MAX_ITEMS) {
      throw new IllegalArgumentException("permits: must be from 1 to " + MAX_ITEMS + ", was " + n);
    }
    return n;
  }

  private static List<long[]> buckets(JsonArray list) {
    if (list == null || list.size() > MAX_ITEMS) {
      throw new IllegalArgumentException("buckets: a list of at most " + MAX_ITEMS + " is needed");
    }
    List<long[]> buckets = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      JsonArray bucket = list.getJsonArray(i);
      if (bucket == null || bucket.size() != 4) {
        throw new IllegalArgumentException("buckets[" + i + "]: [second, calls, failures, slow]");
      }
      long[] values = new long[4];
      for (int j = 0; j < 4; j++) {
        if (!(bucket.getValue(j) instanceof Number n) || n.longValue() < 0) {
          throw new IllegalArgumentException("buckets[" + i + "][" + j + "]: a number >= 0");
        }
        values[j] = n.longValue();
      }
      buckets.add(values);
    }
    return buckets;
  }
}
