package dev.toolgate.sidecar.proxy;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

/** Opens requests to upstreams over one pooled HTTP client (keep-alive, HTTP/1.1). */
final class UpstreamClient {

  private final HttpClient http;

  UpstreamClient(HttpClient http) {
    this.http = http;
  }

  /**
   * Opens a request carrying the agent's headers (less hop-by-hop and Toolgate's own), or, to an
   * upstream with a credential of the sidecar's, that credential instead of the agent's.
   *
   * @param uri the upstream path and query
   */
  Future<HttpClientRequest> open(
      UpstreamRoute route, HttpMethod method, String uri, MultiMap agentHeaders) {
    RequestOptions options =
        new RequestOptions()
            .setMethod(method)
            .setHost(route.host())
            .setPort(route.port())
            .setSsl(route.ssl())
            .setURI(uri);
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    Hop.copyRequest(agentHeaders, headers);
    if (route.credential() != null) {
      route.credential().apply(headers);
      if (route.ssl() && route.credential().tls() != null) {
        options.setSslOptions(route.credential().tls());
      }
    }
    options.setHeaders(headers);
    try {
      return http.request(options);
    } catch (IllegalStateException closing) {
      return Future.failedFuture(closing);
    }
  }

  Future<Void> close() {
    return http.close();
  }
}
