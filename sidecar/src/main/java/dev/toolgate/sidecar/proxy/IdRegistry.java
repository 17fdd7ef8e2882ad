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
 * when they expire; {@link #expire(long)} is called from a periodic timer.
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

  void expire(long nowMs) {
    byUpstreamId.values().removeIf(p -> p.expiresAtMs <= nowMs);
    byClientId.values().removeIf(p -> p.expiresAtMs <= nowMs);
  }

  /** A number id and the same digits as a string are different JSON-RPC ids. */
  static String clientIdKey(String scope, Object id) {
    return scope + (id instanceof String ? "|s:" : "|n:") + id;
  }
}
