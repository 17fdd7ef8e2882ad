package dev.toolgate.sidecar.state.hazelcast;

import dev.toolgate.policy.idempotency.IdempotencyRecord;
import dev.toolgate.policy.idempotency.RecordState;
import dev.toolgate.policy.quota.RateWindow;
import dev.toolgate.policy.quota.Usage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The shared values as JSON text: members hold plain strings, so they need none of Toolgate's
 * classes, and a value written by one sidecar version stays readable by the next.
 */
public final class UsageJson {

  private UsageJson() {}

  public static String usage(Usage u) {
    JsonArray counts = new JsonArray();
    for (int c : u.rate().counts()) {
      counts.add(c);
    }
    JsonObject o =
        new JsonObject()
            .put("r", u.reads())
            .put("w", u.writes())
            .put("xr", u.extraReads())
            .put("xw", u.extraWrites())
            .put("seen", u.lastSeenMs())
            .put("sec", u.rate().lastSecond())
            .put("rate", counts);
    if (u.rate().ahead() > 0) {
      o.put("ahead", u.rate().ahead());
    }
    return o.encode();
  }

  public static Usage usage(String json) {
    if (json == null) {
      return null;
    }
    JsonObject o = new JsonObject(json);
    JsonArray counts = o.getJsonArray("rate");
    int[] rate = new int[counts.size()];
    for (int i = 0; i < rate.length; i++) {
      rate[i] = counts.getInteger(i);
    }
    return new Usage(
        o.getInteger("r"),
        o.getInteger("w"),
        o.getInteger("xr"),
        o.getInteger("xw"),
        o.getLong("seen"),
        new RateWindow(o.getLong("sec"), rate, o.getInteger("ahead", 0)));
  }

  public static String record(IdempotencyRecord r) {
    return new JsonObject()
        .put("state", r.state().name())
        .put("args", r.argumentsHash())
        .put("corr", r.correlationId())
        .put("answer", r.answer())
        .put("op", r.operationId())
        .put("at", r.updatedAtMs())
        .encode();
  }

  public static IdempotencyRecord record(String json) {
    if (json == null) {
      return null;
    }
    JsonObject o = new JsonObject(json);
    return new IdempotencyRecord(
        RecordState.valueOf(o.getString("state")),
        o.getString("args"),
        o.getString("corr"),
        o.getString("answer"),
        o.getString("op"),
        o.getLong("at"));
  }
}
