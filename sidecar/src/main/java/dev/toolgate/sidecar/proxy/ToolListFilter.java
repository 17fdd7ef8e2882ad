package dev.toolgate.sidecar.proxy;

import dev.toolgate.sidecar.mcp.JsonRpc;
import dev.toolgate.sidecar.mcp.SseEvent;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.function.Predicate;

/**
 * Under {@code unlistedTools: deny}, a {@code tools/list} answer loses the tools the policy does
 * not name, so an agent is never offered a tool it would be refused. Anything that is not a
 * tools/list result passes unchanged.
 */
final class ToolListFilter {

  private final Predicate<String> named;

  ToolListFilter(Predicate<String> named) {
    this.named = named;
  }

  /**
   * Sends a tools/list request upstream and relays its answer without the tools the policy does not
   * name: event by event on a stream, whole as JSON (both up to {@code runtime.maxAnswerBytes},
   * which {@code bodies} enforces: a larger answer is refused, not relayed).
   */
  void relay(
      HttpServerRequest req,
      Future<HttpClientRequest> opened,
      Buffer body,
      HeldBodies bodies,
      Handler<Throwable> unreachable) {
    HttpServerResponse res = req.response();
    opened
        .compose(
            upstream -> {
              res.closeHandler(v -> upstream.reset());
              return upstream.send(body);
            })
        .onSuccess(
            response -> {
              if (res.closed()) {
                response.request().reset();
                return;
              }
              if (Relay.isEventStream(response)) {
                Relay.head(response, res);
                Relay.events(response, res, bodies, this::event, end -> end(res, end));
                return;
              }
              bodies
                  .read(response)
                  .onSuccess(
                      answer -> {
                        Relay.head(response, res);
                        res.end(body(answer));
                      })
                  .onFailure(unreachable);
            })
        .onFailure(unreachable);
  }

  private static void end(HttpServerResponse res, Relay.End end) {
    if (end == Relay.End.CLEAN) {
      res.end();
    } else {
      res.reset();
    }
  }

  /** A JSON body: the message (or a batch of them) with the unnamed tools left out. */
  Buffer body(Buffer body) {
    Object parsed;
    try {
      parsed = body.toJsonValue();
    } catch (DecodeException e) {
      return body;
    }
    if (parsed instanceof JsonObject message) {
      return filter(message) ? message.toBuffer() : body;
    }
    if (parsed instanceof JsonArray batch) {
      boolean changed = false;
      for (Object m : batch) {
        changed |= m instanceof JsonObject o && filter(o);
      }
      return changed ? batch.toBuffer() : body;
    }
    return body;
  }

  /** One server-sent event: its id and type kept, its message filtered. */
  Buffer event(SseEvent event) {
    if (!event.isMessage()) {
      return event.raw();
    }
    JsonObject message;
    try {
      message = new JsonObject(event.data());
    } catch (DecodeException | ClassCastException e) {
      return event.raw();
    }
    return filter(message)
        ? SseEvent.format(event.id(), event.type(), message.encode())
        : event.raw();
  }

  /** Removes the unnamed tools of a tools/list result in place; whether it removed any. */
  private boolean filter(JsonObject message) {
    if (!JsonRpc.isResponse(message)
        || !(message.getValue("result") instanceof JsonObject result)
        || !(result.getValue("tools") instanceof JsonArray tools)) {
      return false;
    }
    JsonArray kept = new JsonArray();
    for (Object tool : tools) {
      if (tool instanceof JsonObject t
          && t.getValue("name") instanceof String name
          && named.test(name)) {
        kept.add(t);
      }
    }
    if (kept.size() == tools.size()) {
      return false;
    }
    result.put("tools", kept);
    return true;
  }
}
