package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.model.UnlistedTools;
import dev.toolgate.sidecar.mcp.JsonRpc;
import dev.toolgate.sidecar.mcp.McpHeaders;
import dev.toolgate.sidecar.mcp.ParsedMessage;
import dev.toolgate.sidecar.mcp.SseEvent;
import dev.toolgate.sidecar.metrics.ToolgateMetrics;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent-facing listener's request handler. Everything that is not a {@code tools/call} is
 * relayed as is (methods, headers, status codes, bodies, SSE event by event); a {@code tools/call}
 * goes to the {@link ToolCallHandler}. Bad input is answered with a JSON-RPC error and counted.
 */
final class ProxyHandler implements Handler<HttpServerRequest> {

  private static final Logger LOG = LoggerFactory.getLogger(ProxyHandler.class);
  private static final String PREFIX = "/mcp/";

  private final Supplier<Routing> routing;
  private final UpstreamClient upstreams;
  private final IdRegistry ids;
  private final ToolCallHandler toolCalls;
  private final ToolgateMetrics metrics;
  private final HeldBodies bodies;

  private final Map<String, ToolCall> calls;

  ProxyHandler(
      Supplier<Routing> routing,
      UpstreamClient upstreams,
      IdRegistry ids,
      ToolCallHandler toolCalls,
      ToolgateMetrics metrics,
      Map<String, ToolCall> calls,
      HeldBodies bodies) {
    this.calls = calls;
    this.bodies = bodies;
    this.routing = routing;
    this.upstreams = upstreams;
    this.ids = ids;
    this.toolCalls = toolCalls;
    this.metrics = metrics;
  }

  @Override
  public void handle(HttpServerRequest req) {
    Routing current = routing.get();
    String path = req.path();
    if (!path.startsWith(PREFIX)) {
      reject(
          req,
          404,
          null,
          JsonRpc.UNKNOWN_UPSTREAM,
          "Toolgate serves MCP at /mcp/<upstream>; known upstreams: " + current.knownUpstreams(),
          "unknown_upstream");
      return;
    }
    String rest = path.substring(PREFIX.length());
    int slash = rest.indexOf('/');
    String name = slash < 0 ? rest : rest.substring(0, slash);
    String sub = slash < 0 ? "" : rest.substring(slash);
    UpstreamRoute route = current.route(name);
    if (route == null) {
      reject(
          req,
          404,
          null,
          JsonRpc.UNKNOWN_UPSTREAM,
          "unknown upstream '" + name + "'; known upstreams: " + current.knownUpstreams(),
          "unknown_upstream");
      return;
    }
    String badPath = RequestPath.problem(path);
    if (badPath != null || !route.relays(sub)) {
      reject(
          req,
          404,
          null,
          JsonRpc.UNKNOWN_UPSTREAM,
          badPath != null
              ? badPath
              : "only the MCP endpoint "
                  + route.proxyPath()
                  + " is relayed (and the legacy message endpoint the upstream announces)",
          "path_not_relayed");
      return;
    }
    if (req.method() == HttpMethod.POST) {
      int limit = current.loaded().config().runtime().maxBodyBytes();
      HeldBodies.Hold hold = bodies.requestHold();
      req.response().endHandler(v -> hold.close());
      readBody(req, limit, hold).onSuccess(body -> onPost(req, current, route, sub, body, hold));
    } else if (hasBody(req)) {
      // MCP sends every message by POST; a body on any other method could carry a tools/call
      // that would then reach the upstream unread.
      req.response().putHeader(HttpHeaders.ALLOW, "GET, POST, DELETE");
      req.response().putHeader(HttpHeaders.CONNECTION, "close");
      toolCalls.refuse(
          req,
          current,
          route,
          null,
          null,
          405,
          JsonRpc.INVALID_REQUEST,
          "MCP messages are sent by POST; " + req.method() + " with a body is not relayed",
          "method_not_allowed");
    } else {
      forward(req, route, sub, null);
    }
  }

  /**
   * Reads an agent's request body, counted in {@code hold} until the response ends: over {@code
   * limit} it is refused with 413, and while the sidecar holds too many bodies with 503.
   */
  private Future<Buffer> readBody(HttpServerRequest req, int limit, HeldBodies.Hold hold) {
    Promise<Buffer> promise = Promise.promise();
    String declared = req.getHeader(HttpHeaders.CONTENT_LENGTH);
    long length = declared == null ? -1 : parseLong(declared);
    if (length > limit) {
      tooLarge(req, limit);
      return promise.future();
    }
    if (length > 0 && !hold.add(length)) {
      busy(req);
      return promise.future();
    }
    GatheredBody body = new GatheredBody(limit, length);
    boolean[] refused = new boolean[1];
    req.handler(
        chunk -> {
          if (refused[0]) {
            return;
          }
          if (!body.add(chunk)) {
            refused[0] = true;
            tooLarge(req, limit);
          } else if (length < 0 && !hold.add(chunk.length())) {
            refused[0] = true;
            busy(req);
          }
        });
    req.endHandler(
        v -> {
          if (!refused[0]) {
            promise.complete(body.body());
          }
        });
    req.exceptionHandler(e -> LOG.debug("agent request failed while reading its body", e));
    return promise.future();
  }

  private void busy(HttpServerRequest req) {
    req.response().putHeader(HttpHeaders.CONNECTION, "close");
    req.response().putHeader(McpHeaders.RETRY_AFTER, "1");
    reject(
        req,
        503,
        null,
        JsonRpc.BUSY,
        "the sidecar holds as many request and answer bodies as it may (runtime.maxHeldBytes);"
            + " retry in a second",
        "sidecar_busy");
  }

  private void tooLarge(HttpServerRequest req, int limit) {
    req.response().putHeader(HttpHeaders.CONNECTION, "close");
    reject(
        req,
        413,
        null,
        JsonRpc.REQUEST_TOO_LARGE,
        "request body exceeds the limit of " + limit + " bytes (runtime.maxBodyBytes)",
        "body_too_large");
  }

  private void onPost(
      HttpServerRequest req,
      Routing current,
      UpstreamRoute route,
      String sub,
      Buffer body,
      HeldBodies.Hold hold) {
    ParsedMessage parsed;
    try {
      parsed = ParsedMessage.parse(body);
    } catch (DecodeException e) {
      reject(
          req,
          400,
          null,
          JsonRpc.PARSE_ERROR,
          "parse error: the body is not valid JSON",
          "malformed_json");
      return;
    }
    Object message = parsed.value();
    if (message instanceof JsonObject msg) {
      if (!headersMatchBody(req, msg)) {
        return;
      }
      String method = msg.getValue("method") instanceof String m ? m : null;
      if ("tools/call".equals(method)) {
        // Whatever its id: a call the policy cannot enforce is refused, never relayed.
        toolCalls.handle(req, current, route, sub, parsed, hold);
      } else if ("notifications/cancelled".equals(method)) {
        if (!cancelToolCall(route, req, msg)) {
          forward(req, route, sub, cancellationUpstream(route, req, msg, body));
        }
      } else if ("tools/list".equals(method)
          && current.loaded().config().policy().unlistedTools() == UnlistedTools.DENY) {
        var policy = current.loaded().config().policy();
        new ToolListFilter(tool -> policy.names(route.name(), tool))
            .relay(
                req,
                upstreams.open(
                    route, req.method(), route.upstreamUri(sub, req.query()), req.headers()),
                body,
                bodies,
                e -> unreachable(req, route, e));
      } else {
        forward(req, route, sub, body);
      }
    } else if (message instanceof JsonArray batch) {
      boolean hasToolCall =
          batch.stream()
              .anyMatch(
                  m -> m instanceof JsonObject o && "tools/call".equals(o.getValue("method")));
      if (hasToolCall) {
        reject(
            req,
            400,
            null,
            JsonRpc.INVALID_REQUEST,
            "Toolgate does not accept tools/call inside a JSON-RPC batch; send each call alone",
            "batched_tool_call");
      } else {
        forward(req, route, sub, body);
      }
    } else {
      reject(
          req,
          400,
          null,
          JsonRpc.INVALID_REQUEST,
          "a JSON-RPC message must be an object (or, in 2025-03-26, an array)",
          "invalid_request");
    }
  }

  /** 2026-07-28: the routing headers must say what the body says (never trust them over it). */
  private boolean headersMatchBody(HttpServerRequest req, JsonObject msg) {
    String headerMethod = req.getHeader(McpHeaders.METHOD);
    Object method = msg.getValue("method");
    if (headerMethod != null && method != null && !headerMethod.equals(method)) {
      reject(
          req,
          400,
          msg.getValue("id"),
          JsonRpc.INVALID_REQUEST,
          "the Mcp-Method header '"
              + headerMethod
              + "' does not match the body's method '"
              + method
              + "'",
          "header_mismatch");
      return false;
    }
    String headerName = req.getHeader(McpHeaders.NAME);
    if (headerName != null && "tools/call".equals(method)) {
      Object name = msg.getJsonObject("params", new JsonObject()).getValue("name");
      if (!headerName.equals(name)) {
        reject(
            req,
            400,
            msg.getValue("id"),
            JsonRpc.INVALID_REQUEST,
            "the Mcp-Name header '"
                + headerName
                + "' does not match the body's tool '"
                + name
                + "'",
            "header_mismatch");
        return false;
      }
    }
    return true;
  }

  /**
   * The agent cancels a tool call of its own: the call stops (no further attempt, the running one
   * cancelled upstream under the sidecar's id, no result sent) and the notification is answered 202
   * here. False when no tool call of this agent has that id: the notification goes upstream.
   */
  private boolean cancelToolCall(UpstreamRoute route, HttpServerRequest req, JsonObject msg) {
    JsonObject params = msg.getValue("params") instanceof JsonObject p ? p : null;
    if (params == null || params.getValue("requestId") == null) {
      return false;
    }
    String scope = IdRegistry.scope(route.name(), req.getHeader(McpHeaders.SESSION_ID));
    ToolCall call = calls.get(IdRegistry.clientIdKey(scope, params.getValue("requestId")));
    if (call == null) {
      return false;
    }
    call.cancelByAgent();
    req.response().setStatusCode(202).end();
    return true;
  }

  /** The agent cancels by its own request id; upstream knows the request by the sidecar's id. */
  private Buffer cancellationUpstream(
      UpstreamRoute route, HttpServerRequest req, JsonObject msg, Buffer body) {
    JsonObject params = msg.getJsonObject("params");
    if (params == null) {
      return body;
    }
    String scope = IdRegistry.scope(route.name(), req.getHeader(McpHeaders.SESSION_ID));
    IdRegistry.Pending pending = ids.byClientId(scope, params.getValue("requestId"));
    if (pending == null) {
      return body;
    }
    pending.cancelledByAgent = true;
    JsonObject rewritten = msg.copy();
    rewritten.getJsonObject("params").put("requestId", pending.upstreamId);
    return rewritten.toBuffer();
  }

  /** Relays a request upstream and its response back, transparently. */
  private void forward(HttpServerRequest req, UpstreamRoute route, String sub, Buffer body) {
    HttpServerResponse res = req.response();
    upstreams
        .open(route, req.method(), route.upstreamUri(sub, req.query()), req.headers())
        .compose(
            upstream -> {
              res.closeHandler(v -> upstream.reset());
              return body == null ? sendStreaming(req, upstream) : upstream.send(body);
            })
        .onSuccess(response -> relay(req, route, response))
        .onFailure(e -> unreachable(req, route, e));
  }

  private static Future<HttpClientResponse> sendStreaming(
      HttpServerRequest req, HttpClientRequest upstream) {
    return hasBody(req) ? upstream.send(req) : upstream.send();
  }

  private static boolean hasBody(HttpServerRequest req) {
    String length = req.getHeader(HttpHeaders.CONTENT_LENGTH);
    return (length != null && parseLong(length) != 0)
        || req.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
  }

  private void relay(HttpServerRequest req, UpstreamRoute route, HttpClientResponse response) {
    HttpServerResponse res = req.response();
    if (res.closed()) {
      response.request().reset();
      return;
    }
    Relay.head(response, res);
    if (req.method() == HttpMethod.GET && Relay.isEventStream(response)) {
      String scope = IdRegistry.scope(route.name(), req.getHeader(McpHeaders.SESSION_ID));
      Relay.events(
          response,
          res,
          bodies,
          event -> rewriteStreamEvent(route, scope, event),
          end -> {
            if (end == Relay.End.CLEAN) {
              res.end();
            } else {
              res.reset();
            }
          });
    } else {
      Relay.bytes(response, res);
    }
  }

  /**
   * On a GET stream: the legacy transport's {@code endpoint} event is pointed back at the sidecar,
   * and answers to requests the sidecar sent with its own ids (resumed or legacy streams) get the
   * agent's id back.
   */
  private Buffer rewriteStreamEvent(UpstreamRoute route, String scope, SseEvent event) {
    if ("endpoint".equals(event.type()) && event.data() != null) {
      String local = LegacyEndpoint.rewrite(route, event.dataText());
      if (local == null) {
        LOG.warn(
            "upstream '{}' sent a legacy endpoint on another origin; dropped it so agents "
                + "cannot bypass the sidecar",
            route.name());
        return Buffer.buffer();
      }
      return SseEvent.format(event.id(), event.type(), local);
    }
    if (!event.isMessage() || !event.dataContains(ToolCallHandler.ID_PREFIX)) {
      return event.raw();
    }
    JsonObject message;
    try {
      message = new JsonObject(event.data());
    } catch (DecodeException e) {
      return event.raw();
    }
    if (!JsonRpc.isResponse(message) || !(message.getValue("id") instanceof String id)) {
      return event.raw();
    }
    IdRegistry.Pending pending = ids.byUpstreamId(id);
    if (pending == null) {
      // An answer to a request of the sidecar's that is no longer awaited: replayed to the agent
      // that resumed its stream under its own id when it was answered, else (given up, or not
      // this session's) dropped, since its id is the sidecar's own.
      Object clientId = ids.answeredClientId(scope, id);
      if (clientId != null) {
        message.put("id", clientId);
        return SseEvent.format(event.id(), event.type(), message.encode());
      }
      return ToolCallHandler.isOwnId(id) ? Buffer.buffer() : event.raw();
    }
    message.put("id", pending.clientId);
    ids.answered(pending);
    pending.deliver(message);
    return SseEvent.format(event.id(), event.type(), message.encode());
  }

  private void unreachable(HttpServerRequest req, UpstreamRoute route, Throwable e) {
    LOG.debug("upstream '{}' unreachable", route.name(), e);
    if (req.response().headWritten()) {
      req.response().reset();
      return;
    }
    reject(
        req,
        502,
        null,
        JsonRpc.UPSTREAM_UNAVAILABLE,
        "upstream '" + route.name() + "' is unreachable: " + ToolCallHandler.describe(e),
        "upstream_unavailable");
  }

  private void reject(
      HttpServerRequest req, int status, Object id, int code, String message, String reason) {
    metrics.rejected(reason);
    HttpServerResponse res = req.response();
    if (res.ended() || res.closed()) {
      return;
    }
    res.setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .end(JsonRpc.error(id, code, message));
  }

  static long parseLong(String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Where the legacy HTTP+SSE transport tells the agent to POST. */
  static final class LegacyEndpoint {
    private LegacyEndpoint() {}

    /**
     * The sidecar path that leads to the endpoint the upstream announced, or null when that
     * endpoint is on another origin.
     */
    static String rewrite(UpstreamRoute route, String endpoint) {
      URI resolved = route.url().resolve(endpoint.trim());
      URI origin = route.origin();
      int port =
          resolved.getPort() > 0
              ? resolved.getPort()
              : "https".equals(resolved.getScheme()) ? 443 : 80;
      if (!origin.getHost().equalsIgnoreCase(resolved.getHost())
          || origin.getPort() != port
          || !origin.getScheme().equals(resolved.getScheme())) {
        return null;
      }
      String path =
          resolved.getRawPath() == null || resolved.getRawPath().isEmpty()
              ? "/"
              : resolved.getRawPath();
      String query = resolved.getRawQuery();
      if (RequestPath.problem(path) != null) {
        return null;
      }
      route.announce(path);
      return route.proxyPath() + path + (query == null ? "" : "?" + query);
    }
  }
}
