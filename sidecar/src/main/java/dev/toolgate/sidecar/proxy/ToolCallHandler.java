package dev.toolgate.sidecar.proxy;

import dev.toolgate.sidecar.mcp.JsonRpc;
import dev.toolgate.sidecar.mcp.McpHeaders;
import dev.toolgate.sidecar.mcp.ParsedMessage;
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

  /**
   * Every upstream id the sidecar makes starts with this, so stream rewriting can skip the rest.
   */
  static final String ID_PREFIX = "tg-";

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
      HttpServerRequest req,
      Routing routing,
      UpstreamRoute route,
      String sub,
      ParsedMessage request) {
    JsonObject msg = (JsonObject) request.value();
    Object params = msg.getValue("params");
    Object name = params instanceof JsonObject p ? p.getValue("name") : null;
    if (!(name instanceof String tool) || tool.isEmpty()) {
      req.response()
          .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(
              JsonRpc.error(
                  msg.getValue("id"),
                  JsonRpc.INVALID_PARAMS,
                  "tools/call needs params.name, the tool's name (a string)"));
      services.metrics().rejected("invalid_params");
      return;
    }
    String correlationId =
        ID_PREFIX + instance + "-" + Long.toHexString(sequence.incrementAndGet());
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
            request,
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
}
