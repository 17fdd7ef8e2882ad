package dev.toolgate.sidecar;

import dev.toolgate.policy.config.ListenAddress;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP listener's defence against DNS rebinding, as the MCP specification asks: a request whose
 * {@code Origin} is not one of {@code listen.allowedOrigins} (none by default: only requests
 * without one) or whose {@code Host} is neither loopback, the listener's own address nor one of
 * {@code listen.allowedHosts} is refused with 403 before anything else.
 */
public final class OriginCheck {

  private static final Logger LOG = LoggerFactory.getLogger(OriginCheck.class);

  private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

  private final Set<String> origins = new HashSet<>();
  private final Set<String> hosts = new HashSet<>(LOOPBACK);

  public OriginCheck(ListenAddress listen) {
    listen.allowedOrigins().forEach(o -> origins.add(normalOrigin(o)));
    listen.allowedHosts().forEach(h -> hosts.add(hostName(h)));
    if (!"0.0.0.0".equals(listen.host()) && !"::".equals(listen.host())) {
      hosts.add(hostName(listen.host()));
    }
  }

  /** Wraps the listener's handler. */
  public Handler<HttpServerRequest> guarding(Handler<HttpServerRequest> handler) {
    return req -> {
      String refusal = refusal(req.getHeader(HttpHeaders.ORIGIN), req.getHeader(HttpHeaders.HOST));
      if (refusal == null) {
        handler.handle(req);
        return;
      }
      LOG.warn("refused a request to {}: {}", req.path(), refusal);
      req.response()
          .setStatusCode(403)
          .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(
              new JsonObject()
                  .put("jsonrpc", "2.0")
                  .putNull("id")
                  .put("error", new JsonObject().put("code", -32600).put("message", refusal))
                  .encode());
    };
  }

  /** Why a request with these headers is refused, or null when it is served. */
  String refusal(String origin, String host) {
    if (origin != null && !origins.contains(normalOrigin(origin))) {
      return "Origin "
          + shown(origin)
          + " is not allowed (listen.allowedOrigins); requests without an Origin are served";
    }
    if (host == null || !hosts.contains(hostName(host))) {
      return "Host "
          + (host == null ? "(none)" : shown(host))
          + " is not this sidecar's (loopback, its address or listen.allowedHosts)";
    }
    return null;
  }

  /** An origin as compared: lower case, without a trailing slash. */
  private static String normalOrigin(String origin) {
    String o = origin.strip().toLowerCase(Locale.ROOT);
    return o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
  }

  /** A Host value's name, without its port, lower case. */
  static String hostName(String host) {
    String h = host.strip().toLowerCase(Locale.ROOT);
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      return end < 0 ? h : h.substring(0, end + 1);
    }
    int colon = h.indexOf(':');
    if (colon >= 0 && h.indexOf(':', colon + 1) < 0) {
      return h.substring(0, colon);
    }
    return h;
  }

  /** A header value as a log line and an answer may show it: short, printable ASCII only. */
  private static String shown(String value) {
    String v = value.length() > 100 ? value.substring(0, 100) + "..." : value;
    return "'" + v.replaceAll("[^\\x20-\\x7e]", "?") + "'";
  }
}
