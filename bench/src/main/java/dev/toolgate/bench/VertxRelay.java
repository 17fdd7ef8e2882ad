package dev.toolgate.bench;

import dev.toolgate.sidecar.Sidecar;
import dev.toolgate.sidecar.proxy.Hop;
import dev.toolgate.sidecar.proxy.Proxy;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;

/**
 * The framework's floor, a baseline of the load benchmark: Vert.x relaying each request and its
 * answer between the load and the backend, on the sidecar's Vert.x options and (started by the
 * benchmark) its image's JVM flags, with nothing of Toolgate's in between. Like the sidecar with a
 * {@code tools/call}, it reads the whole request body before it forwards it and the whole answer
 * before it writes it back; it keeps as many pooled keep-alive HTTP/1.1 connections to the backend
 * as the sidecar's proxy and drops only the hop-by-hop headers, as the sidecar's own {@link Hop}
 * does. What the sidecar's pass-through adds on top of this is Toolgate's work; what this adds over
 * nginx is the JVM's and Vert.x's.
 *
 * <p>For request/answer exchanges only: an event stream would be held until it ends.
 */
final class VertxRelay {

  static final String USAGE =
      """
      Usage: VertxRelay --port N --upstream http://127.0.0.1:PORT
        Relays every request on 127.0.0.1:N to the same path on the upstream (the load benchmark's
        vertx-relay baseline, docs/performance.md).
      """;

  private VertxRelay() {}

  /**
   * Listens on {@code 127.0.0.1:port} (0: any free port) and relays to {@code upstream}'s origin.
   */
  static Future<HttpServer> start(Vertx vertx, int port, URI upstream) {
    if (upstream.getHost() == null
        || upstream.getPort() < 0
        || !"http".equals(upstream.getScheme())) {
      return Future.failedFuture(
          new IllegalArgumentException(
              "--upstream must be http://host:port, got '" + upstream + "'"));
    }
    HttpClient client =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true),
            new PoolOptions().setHttp1MaxSize(Proxy.DEFAULT_POOL_SIZE));
    return vertx
        .createHttpServer(
            new HttpServerOptions()
                .setHost("127.0.0.1")
                .setPort(port)
                .setHttp2ClearTextEnabled(false))
        .requestHandler(req -> relay(client, upstream, req))
        .listen();
  }

  private static void relay(HttpClient client, URI upstream, HttpServerRequest req) {
    HttpServerResponse res = req.response();
    RequestOptions options =
        new RequestOptions()
            .setMethod(req.method())
            .setHost(upstream.getHost())
            .setPort(upstream.getPort())
            .setURI(req.uri())
            .setHeaders(MultiMap.caseInsensitiveMultiMap());
    Hop.copy(req.headers(), options.getHeaders());
    req.body()
        .compose(body -> client.request(options).compose(r -> r.send(body)))
        .compose(
            answer ->
                answer
                    .body()
                    .map(
                        body -> {
                          res.setStatusCode(answer.statusCode());
                          Hop.copy(answer.headers(), res.headers());
                          return res.end(body);
                        }))
        .onFailure(
            e -> {
              if (!res.headWritten()) {
                res.setStatusCode(502).end("upstream unreachable: " + e.getMessage());
              } else {
                res.reset();
              }
            });
  }

  private static String value(String[] args, int i) {
    if (i + 1 >= args.length) {
      throw new IllegalArgumentException(args[i] + " needs a value");
    }
    return args[i + 1];
  }

  public static void main(String[] args) {
    Integer port = null;
    URI upstream = null;
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--port" -> port = Integer.parseInt(value(args, i++));
          case "--upstream" -> upstream = URI.create(value(args, i++));
          case "--help", "-h" -> {
            System.out.print(USAGE);
            return;
          }
          default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
        }
      }
      if (port == null || upstream == null) {
        throw new IllegalArgumentException("--port and --upstream are required");
      }
    } catch (RuntimeException e) {
      System.err.println(e.getMessage() + "\n" + USAGE);
      System.exit(2);
      return;
    }
    Vertx vertx = Vertx.vertx(Sidecar.vertxOptions());
    URI target = upstream;
    start(vertx, port, target)
        .onSuccess(
            server ->
                System.out.println("relaying 127.0.0.1:" + server.actualPort() + " to " + target))
        .onFailure(
            e -> {
              System.err.println("cannot start the relay: " + e.getMessage());
              vertx.close().onComplete(v -> System.exit(1));
            });
  }
}
