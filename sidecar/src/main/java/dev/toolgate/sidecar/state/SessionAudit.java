package dev.toolgate.sidecar.state;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/** The last calls of each session, for the audit record of a quota block (seed 002). Bounded. */
public final class SessionAudit {

  public static final int CALLS_KEPT = 20;
  private static final int SESSIONS_KEPT = 10_000;

  private final Map<String, Deque<JsonObject>> calls =
      new LinkedHashMap<>(256, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Deque<JsonObject>> eldest) {
          return size() > SESSIONS_KEPT;
        }
      };

  public synchronized void record(String session, JsonObject call) {
    Deque<JsonObject> last = calls.computeIfAbsent(session, s -> new ArrayDeque<>());
    last.addLast(call);
    while (last.size() > CALLS_KEPT) {
      last.removeFirst();
    }
  }

  public synchronized JsonArray lastCalls(String session) {
    JsonArray out = new JsonArray();
    Deque<JsonObject> last = calls.get(session);
    if (last != null) {
      last.forEach(c -> out.add(c.copy()));
    }
    return out;
  }
}
