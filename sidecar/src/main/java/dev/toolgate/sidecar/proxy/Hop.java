package dev.toolgate.sidecar.proxy;

import io.vertx.core.MultiMap;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Copies headers from one hop to the next, leaving out those that belong to a single connection.
 * Public for the load benchmark's Vert.x relay, whose floor must drop what the sidecar drops.
 */
public final class Hop {

  /**
   * RFC 9110 section 7.6.1 connection-specific fields, plus Host and Content-Length (recomputed).
   * Compared ignoring case, so that no header name is lowercased into a new string on every call.
   */
  private static final Set<String> HOP_BY_HOP =
      ignoringCase(
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
          String name = header.getKey();
          if (!HOP_BY_HOP.contains(name)
              && !name.regionMatches(true, 0, TOOLGATE_PREFIX, 0, TOOLGATE_PREFIX.length())
              && !name.equalsIgnoreCase("accept-encoding")) {
            to.add(header.getKey(), header.getValue());
          }
        });
  }

  /** Copies every header but the hop-by-hop ones. */
  public static void copy(MultiMap from, MultiMap to) {
    from.forEach(
        header -> {
          if (!HOP_BY_HOP.contains(header.getKey())) {
            to.add(header.getKey(), header.getValue());
          }
        });
  }

  private static Set<String> ignoringCase(String... names) {
    Set<String> set = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    set.addAll(List.of(names));
    return Collections.unmodifiableSet(set);
  }
}
