package dev.toolgate.sidecar;

import dev.toolgate.policy.config.RuntimeOptions;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one listener lets a connection hold: it is closed when idle for {@code
 * runtime.idleTimeoutSeconds}, when its first request's headers are not in within {@code
 * runtime.headerTimeoutMs} (a client trickling its headers, as slowloris does), and as it opens
 * when the listener already holds {@code runtime.maxConnections}. The limits are the ones in force
 * when the listener started.
 */
public final class ConnectionGuard {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectionGuard.class);

  private final Vertx vertx;
  private final String listener;
  private final long headerTimeoutMs;
  private final int maxConnections;
  private final AtomicInteger open = new AtomicInteger();

  /** The header deadline of each connection that has not sent a whole request yet. */
  private final Map<HttpConnection, Long> awaitingHeaders = new ConcurrentHashMap<>();

  public ConnectionGuard(Vertx vertx, String listener, RuntimeOptions runtime) {
    this.vertx = vertx;
    this.listener = listener;
    this.headerTimeoutMs = runtime.headerTimeoutMs();
    this.maxConnections = runtime.maxConnections();
  }

  /** The listener's options with the idle timeout set. */
  public static HttpServerOptions withIdleTimeout(
      HttpServerOptions options, RuntimeOptions runtime) {
    return options
        .setIdleTimeout(runtime.idleTimeoutSeconds())
        .setIdleTimeoutUnit(TimeUnit.SECONDS);
  }

  /** For {@code HttpServer.connectionHandler}: counts, limits and arms the header deadline. */
  public void onConnection(HttpConnection connection) {
    int now = open.incrementAndGet();
    connection.closeHandler(
        v -> {
          open.decrementAndGet();
          Long timer = awaitingHeaders.remove(connection);
          if (timer != null) {
            vertx.cancelTimer(timer);
          }
        });
    if (now > maxConnections) {
      LOG.warn(
          "{} listener: {} connections open, at most {} (runtime.maxConnections); closed a new"
              + " one from {}",
          listener,
          now - 1,
          maxConnections,
          connection.remoteAddress());
      connection.close();
      return;
    }
    long timer =
        vertx.setTimer(
            headerTimeoutMs,
            t -> {
              if (awaitingHeaders.remove(connection) != null) {
                LOG.warn(
                    "{} listener: closed a connection from {} that sent no whole request within"
                        + " {} ms (runtime.headerTimeoutMs)",
                    listener,
                    connection.remoteAddress(),
                    headerTimeoutMs);
                connection.close();
              }
            });
    awaitingHeaders.put(connection, timer);
  }

  /** Wraps a request handler: a request whose headers are in disarms its connection's deadline. */
  public Handler<HttpServerRequest> requests(Handler<HttpServerRequest> handler) {
    return req -> {
      Long timer = awaitingHeaders.remove(req.connection());
      if (timer != null) {
        vertx.cancelTimer(timer);
      }
      handler.handle(req);
    };
  }
}
