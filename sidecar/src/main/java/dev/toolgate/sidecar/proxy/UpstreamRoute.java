package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.model.Upstream;
import java.net.URI;

/**
 * Where {@code /mcp/<name>} leads. The exact path goes to the upstream's URL; a sub-path {@code
 * /mcp/<name>/<rest>} goes to {@code <rest>} on the upstream's origin, which is how the legacy
 * HTTP+SSE transport's message endpoint is reached through the sidecar.
 */
record UpstreamRoute(
    String name,
    boolean ssl,
    String host,
    int port,
    String path,
    String query,
    UpstreamCredential credential,
    RelayedPaths relayed) {

  UpstreamRoute(String name, boolean ssl, String host, int port, String path, String query) {
    this(name, ssl, host, port, path, query, null);
  }

  UpstreamRoute(
      String name,
      boolean ssl,
      String host,
      int port,
      String path,
      String query,
      UpstreamCredential credential) {
    this(name, ssl, host, port, path, query, credential, new RelayedPaths(java.util.List.of()));
  }

  /** A path of the upstream's origin that it announced as its legacy message endpoint. */
  void announce(String upstreamPath) {
    relayed.announce(upstreamPath);
  }

  /**
   * Whether the agent may reach {@code sub} (a path after {@code /mcp/<name>}) on this upstream.
   */
  boolean relays(String sub) {
    return sub.isEmpty() || relayed.contains(sub);
  }

  /** The route to {@code upstream}; its credential, when it has one, read from its file now. */
  static UpstreamRoute of(Upstream upstream) {
    URI uri = URI.create(upstream.url());
    boolean ssl = "https".equals(uri.getScheme());
    int port = uri.getPort() > 0 ? uri.getPort() : ssl ? 443 : 80;
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    return new UpstreamRoute(
        upstream.name(),
        ssl,
        uri.getHost(),
        port,
        path,
        uri.getRawQuery(),
        upstream.auth() == null ? null : UpstreamCredential.read(upstream.name(), upstream.auth()),
        new RelayedPaths(upstream.relayPaths()));
  }

  /** The proxy path agents use for this upstream. */
  String proxyPath() {
    return "/mcp/" + name;
  }

  /**
   * The upstream request URI (path and query) for a proxy request.
   *
   * @param rest what follows {@code /mcp/<name>}: empty, or a path starting with '/'
   * @param query the proxy request's raw query, or null
   */
  String upstreamUri(String rest, String query) {
    String p = rest.isEmpty() ? path : rest;
    String q = rest.isEmpty() ? join(this.query, query) : query;
    return q == null ? p : p + "?" + q;
  }

  /** The origin as a client would write it, for resolving relative endpoint URLs. */
  URI origin() {
    return URI.create((ssl ? "https" : "http") + "://" + host + ":" + port + "/");
  }

  URI url() {
    return origin().resolve(query == null ? path : path + "?" + query);
  }

  private static String join(String a, String b) {
    if (a == null || a.isEmpty()) {
      return b;
    }
    if (b == null || b.isEmpty()) {
      return a;
    }
    return a + "&" + b;
  }
}
