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

  /** The ids the sidecar sends upstream: a correlation id and an attempt number. */
  private static final java.util.regex.Pattern OWN_ID =
      java.util.regex.Pattern.compile("tg-[0-9a-f]+-[0-9a-f]+-a[0-9]+");

  /** Whether {@code id} is one the sidecar made for an attempt upstream. */
  static boolean isOwnId(String id) {
    return OWN_ID.matcher(id).matches();
  }

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
      ParsedMessage request,
      HeldBodies.Hold held) {
    JsonObject msg = (JsonObject) request.value();
    Object params = msg.getValue("params");
    Object name = params instanceof JsonObject p ? p.getValue("name") : null;
    if (!validId(msg.getValue("id"))) {
      refuse(
          req,
          routing,
          route,
          name,
          null,
          400,
          JsonRpc.INVALID_REQUEST,
          "a tools/call needs an id that is a string or an integer (JSON-RPC 2.0, MCP), was "
              + (msg.containsKey("id") ? String.valueOf(msg.getValue("id")) : "missing"),
          "invalid_request");
      return;
    }
    if (!(name instanceof String tool) || tool.isEmpty()) {
      refuse(
          req,
          routing,
          route,
          null,
          msg.getValue("id"),
          200,
          JsonRpc.INVALID_PARAMS,
          "tools/call needs params.name, the tool's name (a string)",
          "invalid_params");
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
    new ToolCall(services, req, routing.loaded(), ctx, tool, held).run();
  }

  /** An id JSON-RPC and MCP allow on a request: a string or an integer, never null. */
  static boolean validId(Object id) {
    return id instanceof String
        || id instanceof Integer
        || id instanceof Long
        || id instanceof java.math.BigInteger;
  }

  /**
   * Refuses a call the policy cannot take as it came, with a JSON-RPC error and one event: a call
   * is never relayed untouched, and never leaves no trace.
   *
   * @param name the tool the message names, if it names one
   */
  void refuse(
      HttpServerRequest req,
      Routing routing,
      UpstreamRoute route,
      Object name,
      Object id,
      int status,
      int code,
      String message,
      String reason) {
    var loaded = routing.loaded();
    services
        .events()
        .accept(
            new dev.toolgate.sidecar.evidence.AttemptEvent(
                services.clock().instant(),
                ID_PREFIX + instance + "-" + Long.toHexString(sequence.incrementAndGet()),
                null,
                null,
                req.getHeader(McpHeaders.SESSION_ID),
                name instanceof String s && !s.isEmpty() ? s : "(none)",
                route.name(),
                0,
                null,
                reason,
                0,
                0,
                null,
                null,
                loaded.config().revision(),
                loaded.shortHash(),
                loaded.config().policy().mode().name().toLowerCase(java.util.Locale.ROOT),
                "denied:" + reason,
                null,
                null,
                message,
                null,
                null,
                null,
                null));
    services.metrics().rejected(reason);
    if (req.response().ended() || req.response().closed()) {
      return;
    }
    req.response()
        .setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .end(JsonRpc.error(id, code, message));
  }

  static String describe(Throwable e) {
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    String message = e.getMessage();
    return message == null ? e.getClass().getSimpleName() : message;
  }
}
