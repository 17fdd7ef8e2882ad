package dev.toolgate.sidecar.proxy;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Maps the JSON-RPC ids the sidecar uses upstream back to the agent's ids, for as long as an answer
 * may still arrive: on the POST's own stream, on a resumed GET stream ({@code Last-Event-ID}), or
 * on the legacy SSE stream. Also maps the agent's id to the upstream one, so the agent's {@code
 * notifications/cancelled} reaches the right request.
 *
 * <p>Keys are scoped by upstream and session. Entries are removed when the answer is delivered or
 * when they expire; {@link #expire(long)} is called from a periodic timer. A request answered on an
 * event stream is remembered a while longer, so that an agent resuming its stream gets the replayed
 * answer under its own id.
 */
final class IdRegistry {

  /** One upstream request awaiting its answer. */
  static final class Pending {
    final String scope;
    final Object clientId;
    final String upstreamId;
    final long expiresAtMs;

    /** Its key in {@code byClientId}, made once: removing it then hashes no new string. */
    private final String clientIdKey;

    /** Set when the agent sent {@code notifications/cancelled} for this request. */
    volatile boolean cancelledByAgent;

    private Consumer<JsonObject> onStreamAnswer;
    private JsonObject streamAnswer;

    /**
     * The answer arrived on a stream other than the POST's own (a resumed or legacy stream). It may
     * come before the POST's own response, so it is kept until someone listens.
     */
    synchronized void deliver(JsonObject answer) {
      if (onStreamAnswer != null) {
        onStreamAnswer.accept(answer);
      } else {
        streamAnswer = answer;
      }
    }

    /** Listens for an answer on another stream; called at once if it already came. */
    synchronized void onStreamAnswer(Consumer<JsonObject> listener) {
      if (streamAnswer != null) {
        listener.accept(streamAnswer);
      } else {
        onStreamAnswer = listener;
      }
    }

    Pending(String scope, Object clientId, String upstreamId, long expiresAtMs) {
      this.scope = scope;
      this.clientId = clientId;
      this.upstreamId = upstreamId;
      this.expiresAtMs = expiresAtMs;
      this.clientIdKey = clientIdKey(scope, clientId);
    }
  }

  private final Map<String, Pending> byUpstreamId = new ConcurrentHashMap<>();
  private final Map<String, Pending> byClientId = new ConcurrentHashMap<>();

  /**
   * Requests answered lately, by upstream id: a resumed stream that replays the answer gives it the
   * agent's id again instead of dropping it. The newest {@value #ANSWERED_KEPT}, each for {@link
   * #ANSWERED_KEPT_MS} at most.
   */
  private final Map<String, Answered> answered =
      java.util.Collections.synchronizedMap(
          new java.util.LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Answered> eldest) {
              return size() > ANSWERED_KEPT;
            }
          });

  /** How many answered requests are remembered for a replay. */
  static final int ANSWERED_KEPT = 4_096;

  /** How long an answered request is remembered for a replay. */
  static final long ANSWERED_KEPT_MS = 300_000;

  /** An answered request: its session scope and the agent's id. */
  record Answered(String scope, Object clientId, long expiresAtMs) {}

  private final java.time.Clock clock;

  IdRegistry(java.time.Clock clock) {
    this.clock = clock;
  }

  static String scope(String upstream, String sessionId) {
    return upstream + "|" + (sessionId == null ? "" : sessionId);
  }

  Pending register(String scope, Object clientId, String upstreamId, long expiresAtMs) {
    Pending pending = new Pending(scope, clientId, upstreamId, expiresAtMs);
    byUpstreamId.put(upstreamId, pending);
    byClientId.put(pending.clientIdKey, pending);
    return pending;
  }

  /** The pending request an upstream answer with this id belongs to, if the sidecar made it. */
  Pending byUpstreamId(String upstreamId) {
    return byUpstreamId.get(upstreamId);
  }

  Pending byClientId(String scope, Object clientId) {
    return byClientId.get(clientIdKey(scope, clientId));
  }

  void remove(Pending pending) {
    byUpstreamId.remove(pending.upstreamId, pending);
    byClientId.remove(pending.clientIdKey, pending);
  }

  /** The request was answered: no longer awaited, and remembered for a replay of its answer. */
  void answered(Pending pending) {
    remove(pending);
    answered.put(
        pending.upstreamId,
        new Answered(pending.scope, pending.clientId, clock.millis() + ANSWERED_KEPT_MS));
  }

  /**
   * The agent's id for a replayed answer to {@code upstreamId} on a stream of {@code scope}, or
   * null when the sidecar does not remember answering it there.
   */
  Object answeredClientId(String scope, String upstreamId) {
    Answered a = answered.get(upstreamId);
    return a == null || !a.scope().equals(scope) || a.expiresAtMs() <= clock.millis()
        ? null
        : a.clientId();
  }

  void expire(long nowMs) {
    byUpstreamId.values().removeIf(p -> p.expiresAtMs <= nowMs);
    byClientId.values().removeIf(p -> p.expiresAtMs <= nowMs);
    answered.values().removeIf(a -> a.expiresAtMs() <= nowMs);
  }

  /** A number id and the same digits as a string are different JSON-RPC ids. */
  static String clientIdKey(String scope, Object id) {
    return scope + (id instanceof String ? "|s:" : "|n:") + id;
  }
}
