package dev.toolgate.sidecar.proxy;

import io.vertx.core.MultiMap;
import java.util.Locale;
import java.util.Set;

/** Copies headers from one hop to the next, leaving out those that belong to a single connection. */
final class Hop {

  /** RFC 9110 section 7.6.1 connection-specific fields, plus Host and Content-Length (recomputed). */
  private static final Set<String> HOP_BY_HOP =
      Set.of(
          "connection",
          "keep-alive",
          "proxy-authenticate",
          "proxy-authorization",
          "proxy-connection",
          "te",
          "trailer",
          "transfer-encoding",
          "upgrade",
          "host",
          "content-length");

  private Hop() {}

  /** Toolgate's own agent-facing headers; the sidecar reads them and does not forward them. */
  static final String TOOLGATE_PREFIX = "toolgate-";

  /**
   * Copies an agent's request headers upstream: without hop-by-hop fields, without Toolgate's own
   * headers, and without Accept-Encoding, because the sidecar reads the MCP bodies it relays.
   */
  static void copyRequest(MultiMap from, MultiMap to) {
    from.forEach(
        header -> {
          String name = header.getKey().toLowerCase(Locale.ROOT);
          if (!HOP_BY_HOP.contains(name)
              && !name.startsWith(TOOLGATE_PREFIX)
              && !name.equals("accept-encoding")) {
            to.add(header.getKey(), header.getValue());
          }
        });
  }

  static void copy(MultiMap from, MultiMap to) {
    from.forEach(
        header -> {
          if (!HOP_BY_HOP.contains(header.getKey().toLowerCase(Locale.ROOT))) {
            to.add(header.getKey(), header.getValue());
          }
        });
  }
}
