package dev.toolgate.sidecar.mcp;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/** JSON-RPC 2.0 messages as MCP uses them. */
public final class JsonRpc {
  public static final int PARSE_ERROR = -32700;
  public static final int INVALID_REQUEST = -32600;
  public static final int INVALID_PARAMS = -32602;

  /** Toolgate's own server errors, in JSON-RPC's implementation-defined range. */
  public static final int UNKNOWN_UPSTREAM = -32040;

  public static final int REQUEST_TOO_LARGE = -32041;
  public static final int UPSTREAM_UNAVAILABLE = -32042;

  /** The sidecar holds as many bodies as it may ({@code runtime.maxHeldBytes}): retry shortly. */
  public static final int BUSY = -32043;

  private JsonRpc() {}

  public static boolean isResponse(JsonObject message) {
    return message.getString("method") == null
        && message.containsKey("id")
        && (message.containsKey("result") || message.containsKey("error"));
  }

  public static boolean isRequest(JsonObject message) {
    return message.getValue("method") instanceof String && message.getValue("id") != null;
  }

  public static JsonObject errorMessage(Object id, int code, String message) {
    return new JsonObject()
        .put("jsonrpc", "2.0")
        .put("id", id)
        .put("error", new JsonObject().put("code", code).put("message", message));
  }

  public static Buffer error(Object id, int code, String message) {
    return errorMessage(id, code, message).toBuffer();
  }

  public static JsonObject resultMessage(Object id, JsonObject result) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
  }
}
