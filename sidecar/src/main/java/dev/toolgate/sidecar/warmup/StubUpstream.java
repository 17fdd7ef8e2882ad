package dev.toolgate.sidecar.warmup;

import dev.toolgate.sidecar.mcp.McpHeaders;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The warm-up's upstream: a minimal MCP server on loopback that answers {@code initialize} with a
 * session, every request with a small successful result of the same id, and notifications with 202.
 * It never performs anything.
 */
final class StubUpstream {

  static final String SESSION = "toolgate-warmup";

  private StubUpstream() {}

  static Handler<HttpServerRequest> handler() {
    return req ->
        req.body()
            .onSuccess(
                body -> {
                  JsonObject message;
                  try {
                    message = body.toJsonObject();
                  } catch (DecodeException | ClassCastException e) {
                    req.response().setStatusCode(400).end();
                    return;
                  }
                  Object id = message == null ? null : message.getValue("id");
                  if (id == null) {
                    req.response().setStatusCode(202).end();
                    return;
                  }
                  JsonObject result =
                      "initialize".equals(message.getString("method"))
                          ? new JsonObject()
                              .put(
                                  "protocolVersion",
                                  message
                                      .getJsonObject("params", new JsonObject())
                                      .getString("protocolVersion", WarmupClient.PROTOCOL_VERSION))
                              .put("capabilities", new JsonObject().put("tools", new JsonObject()))
                              .put(
                                  "serverInfo",
                                  new JsonObject()
                                      .put("name", "toolgate-warmup")
                                      .put("version", "1"))
                          : new JsonObject()
                              .put(
                                  "content",
                                  new JsonArray()
                                      .add(
                                          new JsonObject().put("type", "text").put("text", "warm")))
                              .put("isError", false);
                  req.response()
                      .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                      .putHeader(McpHeaders.SESSION_ID, SESSION)
                      .end(
                          new JsonObject()
                              .put("jsonrpc", "2.0")
                              .put("id", id)
                              .put("result", result)
                              .toBuffer());
                });
  }
}
