package dev.toolgate.sidecar.state;

import dev.toolgate.sidecar.evidence.IsoInstant;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last calls of each session, for the audit record of a quota block (seed 002).
 *
 * <p>Bounded three ways: {@link #CALLS_KEPT} calls per session; {@link #SESSIONS_KEPT} sessions,
 * the least recently called forgotten first; and a session without a call for the quotas' idle
 * expiry is forgotten by {@link #expire}, as its counters are. A call is kept as one small record
 * of what its trace event already holds, formatted only when a block asks for it: its time as two
 * numbers, its tool's name as one copy shared by every call of that tool (a call's name is a string
 * of its own, parsed from its request), so a full audit of {@link #SESSIONS_KEPT} sessions stays a
 * small share of a 64 MiB heap.
 */
public final class SessionAudit {

  public static final int CALLS_KEPT = 20;
  public static final int SESSIONS_KEPT = 4_096;

  /**
   * Distinct tool names shared; an agent calling more names than this keeps a copy per call of the
   * rest.
   */
  public static final int TOOL_NAMES_KEPT = 1_024;

  private record Call(
      long epochSecond, int nano, String tool, int attempt, String result, String decision) {
    JsonObject json() {
      return new JsonObject()
          .put("ts", IsoInstant.format(Instant.ofEpochSecond(epochSecond, nano)))
          .put("tool", tool)
          .put("attempt", attempt)
          .put("result", result)
          .put("decision", decision);
    }

    long epochMilli() {
      return epochSecond * 1_000 + nano / 1_000_000;
    }
  }

  private final Map<String, String> toolNames = new HashMap<>();

  private final Map<String, Deque<Call>> sessions =
      new LinkedHashMap<>(256, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Deque<Call>> eldest) {
          return size() > SESSIONS_KEPT;
        }
      };

  /** Keeps one attempt of a session's call; {@code result} and {@code decision} are wire names. */
  public synchronized void record(
      String session, Instant at, String tool, int attempt, String result, String decision) {
    Deque<Call> calls = sessions.computeIfAbsent(session, s -> new ArrayDeque<>(4));
    if (calls.size() == CALLS_KEPT) {
      calls.removeFirst();
    }
    calls.addLast(
        new Call(at.getEpochSecond(), at.getNano(), toolName(tool), attempt, result, decision));
  }

  /**
   * The one copy kept of this tool's name, or the name itself once {@link #TOOL_NAMES_KEPT} are
   * kept.
   */
  synchronized String toolName(String tool) {
    String kept = toolNames.get(tool);
    if (kept != null) {
      return kept;
    }
    if (toolNames.size() < TOOL_NAMES_KEPT) {
      toolNames.put(tool, tool);
    }
    return tool;
  }

  /** The session's last calls, oldest first, as the audit record lists them. */
  public synchronized JsonArray lastCalls(String session) {
    JsonArray out = new JsonArray();
    Deque<Call> calls = sessions.get(session);
    if (calls != null) {
      calls.forEach(c -> out.add(c.json()));
    }
    return out;
  }

  /**
   * Forgets the sessions whose last call is {@code idleMs} or more before {@code nowMs}. The map is
   * in order of last use, which is the order of last call (a block reads a session's list right
   * after recording its refused call), so this stops at the first session still active: O(sessions
   * forgotten).
   */
  public synchronized void expire(long nowMs, long idleMs) {
    Iterator<Deque<Call>> it = sessions.values().iterator();
    while (it.hasNext() && nowMs - it.next().getLast().epochMilli() >= idleMs) {
      it.remove();
    }
  }

  /** Sessions kept. */
  public synchronized int size() {
    return sessions.size();
  }
}
