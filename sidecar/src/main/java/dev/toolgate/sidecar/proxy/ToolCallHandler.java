package dev.toolgate.sidecar.proxy;

import dev.toolgate.sidecar.mcp.JsonRpc;
import dev.toolgate.sidecar.mcp.McpHeaders;
import dev.toolgate.sidecar.mcp.ScannedAnswer;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.net.ConnectException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a {@code tools/call} enters the policy: checks the request names a tool, gives the call its
 * correlation id ({@code tg-<instance>-<n>}; attempt ids add {@code -a<attempt>}) and hands it to a
 * {@link ToolCall}.
 */
final class ToolCallHandler {

  /** Every upstream id the sidecar makes starts with this, so stream rewriting can skip the rest. */
  static final String ID_PREFIX = "tg-";

  private static final String TASK_ID = "taskId";
  private static final String OPERATION_ID = "operation_id";
  private static final String OPERATION_ID_CAMEL = "operationId";
  /** The keys an operation id is read from: an answer that has none of them holds none. */
  static final ScannedAnswer.Keys OPERATION_ID_KEYS = ScannedAnswer.keys(TASK_ID, OPERATION_ID, OPERATION_ID_CAMEL);

  private final CallServices services;
  private final String instance;
  private final AtomicLong sequence = new AtomicLong();

  ToolCallHandler(CallServices services) {
    this.services = services;
    byte[] random = new byte[3];
    new SecureRandom().nextBytes(random);
    this.instance = HexFormat.of().formatHex(random);
  }

  void handle(
      HttpServerRequest req, Routing routing, UpstreamRoute route, String sub, JsonObject msg,
      Buffer bytes) {
    Object params = msg.getValue("params");
    Object name = params instanceof JsonObject p ? p.getValue("name") : null;
    if (!(name instanceof String tool) || tool.isEmpty()) {
      req.response()
          .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(JsonRpc.error(msg.getValue("id"), JsonRpc.INVALID_PARAMS,
              "tools/call needs params.name, the tool's name (a string)"));
      services.metrics().rejected("invalid_params");
      return;
    }
    String correlationId = ID_PREFIX + instance + "-" + Long.toHexString(sequence.incrementAndGet());
    Object clientId = msg.getValue("id");
    ToolCallContext ctx =
        new ToolCallContext(
            correlationId,
            clientId,
            IdRegistry.scope(route.name(), req.getHeader(McpHeaders.SESSION_ID)),
            route,
            route.upstreamUri(sub, req.query()),
            req.headers(),
            req.getHeader(McpHeaders.PROTOCOL_VERSION),
            msg,
            bytes,
            null,
            new AgentReply(req.response(), clientId, correlationId));
    new ToolCall(services, req, routing.loaded(), ctx, tool).run();
  }

  static String describe(Throwable e) {
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    String message = e.getMessage();
    return message == null ? e.getClass().getSimpleName() : message;
  }

  /** The backend's operation id: a task id (2025-11-25 tasks) or an operation id in the result. */
  static String operationId(JsonObject answer) {
    // An error may come with a result that is not an object: none is read from it.
    if (answer == null || !(answer.getValue("result") instanceof JsonObject result)) {
      return null;
    }
    JsonObject task = result.getValue("task") instanceof JsonObject t ? t : null;
    if (task != null && task.getValue(TASK_ID) instanceof String id) {
      return id;
    }
    JsonObject structured =
        result.getValue("structuredContent") instanceof JsonObject s ? s : null;
    if (structured == null) {
      return null;
    }
    Object id = structured.getValue(OPERATION_ID);
    if (id == null) {
      id = structured.getValue(OPERATION_ID_CAMEL);
    }
    return id instanceof String s ? s : null;
  }
}
