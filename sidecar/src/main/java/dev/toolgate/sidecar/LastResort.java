package dev.toolgate.sidecar;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The handler of last resort of a listener: whatever a request's handling throws is logged under a
 * correlation id and answered 500 with that id, never with the exception's text, so no request is
 * left without an answer and nothing internal reaches the caller.
 */
public final class LastResort {

  private static final Logger LOG = LoggerFactory.getLogger(LastResort.class);

  private final String listener;
  private final java.util.function.Function<String, JsonObject> body;

  /**
   * @param listener the listener's name in the log ({@code admin}, {@code mcp})
   * @param body the answer's body for a correlation id
   */
  public LastResort(String listener, java.util.function.Function<String, JsonObject> body) {
    this.listener = listener;
    this.body = body;
  }

  /** The admin listener's: an error and the correlation id. */
  public static LastResort admin() {
    return new LastResort(
        "admin",
        id ->
            new JsonObject()
                .put("error", "internal error; the sidecar's log has the details")
                .put("correlationId", id));
  }

  /** The MCP listener's: a JSON-RPC internal error naming the correlation id. */
  public static LastResort mcp() {
    return new LastResort(
        "mcp",
        id ->
            new JsonObject()
                .put("jsonrpc", "2.0")
                .putNull("id")
                .put(
                    "error",
                    new JsonObject()
                        .put("code", -32603)
                        .put("message", "internal error in the sidecar (correlation id " + id + ")")
                        .put("data", new JsonObject().put("correlationId", id))));
  }

  /** Runs {@code handling}; if it throws, answers 500 with a correlation id. */
  public void guard(HttpServerRequest req, Runnable handling) {
    try {
      handling.run();
    } catch (RuntimeException e) {
      fail(req, e);
    }
  }

  /** Answers 500 with a correlation id for {@code e}, or resets a response already under way. */
  public void fail(HttpServerRequest req, Throwable e) {
    String id = "err-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
    LOG.error("{} request {} {} failed ({})", listener, req.method(), req.path(), id, e);
    if (req.response().ended() || req.response().closed()) {
      return;
    }
    if (req.response().headWritten()) {
      req.response().reset();
      return;
    }
    req.response()
        .setStatusCode(500)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .end(body.apply(id).encode());
  }
}
