package dev.toolgate.demo;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the demo backend really did: calls received and backend operations performed, per tool.
 * Tests compare these with what the agent saw (seed 000: one intent, at most one operation).
 */
public final class Ledger {

  private final Map<String, AtomicLong> callsReceived = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> operationsPerformed = new ConcurrentHashMap<>();
  private final AtomicLong cancellationsReceived = new AtomicLong();
  private final Map<String, JsonObject> lastMeta = new ConcurrentHashMap<>();
  private final Map<String, Map<String, String>> lastHeaders = new ConcurrentHashMap<>();

  void callReceived(String tool, JsonObject meta, Map<String, String> headers) {
    callsReceived.computeIfAbsent(tool, t -> new AtomicLong()).incrementAndGet();
    lastMeta.put(tool, meta == null ? new JsonObject() : meta.copy());
    lastHeaders.put(tool, Map.copyOf(headers));
  }

  void operationPerformed(String tool) {
    operationsPerformed.computeIfAbsent(tool, t -> new AtomicLong()).incrementAndGet();
  }

  void cancellationReceived() {
    cancellationsReceived.incrementAndGet();
  }

  public long callsReceived(String tool) {
    AtomicLong n = callsReceived.get(tool);
    return n == null ? 0 : n.get();
  }

  /** Operations that changed (or, for searches, loaded) the backend. */
  public long operationsPerformed(String tool) {
    AtomicLong n = operationsPerformed.get(tool);
    return n == null ? 0 : n.get();
  }

  public long cancellationsReceived() {
    return cancellationsReceived.get();
  }

  /** The {@code _meta} of the last call of a tool, as the backend received it. */
  public JsonObject lastMeta(String tool) {
    return lastMeta.getOrDefault(tool, new JsonObject());
  }

  /** The HTTP headers (lower-case names) of the last call of a tool. */
  public Map<String, String> lastHeaders(String tool) {
    return lastHeaders.getOrDefault(tool, Map.of());
  }

  public void reset() {
    callsReceived.clear();
    operationsPerformed.clear();
    cancellationsReceived.set(0);
    lastMeta.clear();
    lastHeaders.clear();
  }

  JsonObject toJson() {
    JsonObject calls = new JsonObject();
    callsReceived.forEach((k, v) -> calls.put(k, v.get()));
    JsonObject ops = new JsonObject();
    operationsPerformed.forEach((k, v) -> ops.put(k, v.get()));
    JsonObject authorizations = new JsonObject();
    lastHeaders.forEach((k, v) -> authorizations.put(k, v.get("authorization")));
    return new JsonObject()
        .put("callsReceived", calls)
        .put("lastAuthorization", authorizations)
        .put("operationsPerformed", ops)
        .put("cancellationsReceived", cancellationsReceived.get());
  }
}
