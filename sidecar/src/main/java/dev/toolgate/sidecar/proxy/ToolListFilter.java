package dev.toolgate.sidecar.proxy;

import dev.toolgate.sidecar.mcp.JsonRpc;
import dev.toolgate.sidecar.mcp.SseEvent;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpHeaders;
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

  /** The largest JSON answer read whole to be filtered; a larger one is refused, not relayed. */
  static final int MAX_ANSWER_BYTES = 8 * 1024 * 1024;

  private final Predicate<String> named;

  ToolListFilter(Predicate<String> named) {
    this.named = named;
  }

  /**
   * Sends a tools/list request upstream and relays its answer without the tools the policy does not
   * name: event by event on a stream, whole (up to {@link #MAX_ANSWER_BYTES}) as JSON.
   */
  void relay(
      HttpServerRequest req,
      Future<HttpClientRequest> opened,
      Buffer body,
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
                Relay.events(response, res, this::event, clean -> end(res, clean));
                return;
              }
              String length = response.getHeader(HttpHeaders.CONTENT_LENGTH);
              if (length != null && ProxyHandler.parseLong(length) > MAX_ANSWER_BYTES) {
                response.request().reset();
                unreachable.handle(
                    new IllegalStateException(
                        "its tools/list answer is over " + MAX_ANSWER_BYTES + " bytes"));
                return;
              }
              response
                  .body()
                  .onSuccess(
                      answer -> {
                        Relay.head(response, res);
                        res.end(body(answer));
                      })
                  .onFailure(unreachable);
            })
        .onFailure(unreachable);
  }

  private static void end(HttpServerResponse res, boolean clean) {
    if (clean) {
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
