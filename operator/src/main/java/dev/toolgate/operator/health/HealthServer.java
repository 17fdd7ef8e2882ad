package dev.toolgate.operator.health;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The operator's probes over plain HTTP, for the kubelet: {@code GET /healthz} (the process works:
 * restart it otherwise) and {@code GET /readyz} (it may take admission reviews). Each check answers
 * null when it passes and why not otherwise; a failing check answers 503 with that reason.
 * Read-only: nothing here changes state.
 */
public final class HealthServer implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService executor;

  private HealthServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * @param live null while the process works, else why it does not
   * @param ready null while it may take reviews, else why not
   */
  public static HealthServer start(
      String host, int port, Supplier<String> live, Supplier<String> ready) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
    ExecutorService executor = Executors.newSingleThreadExecutor();
    server.setExecutor(executor);
    server.createContext("/healthz", exchange -> answer(exchange, live.get()));
    server.createContext("/readyz", exchange -> answer(exchange, ready.get()));
    server.start();
    return new HealthServer(server, executor);
  }

  /** Adds a read-only endpoint, such as {@code /metrics}. */
  public void serve(String path, String contentType, Supplier<String> body) {
    server.createContext(
        path,
        exchange -> {
          try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
              send(exchange, 405, "text/plain", "GET only\n");
              return;
            }
            send(exchange, 200, contentType, body.get());
          }
        });
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static void answer(HttpExchange exchange, String failure) throws IOException {
    try (exchange) {
      if (!"GET".equals(exchange.getRequestMethod())) {
        send(exchange, 405, "text/plain", "GET only\n");
        return;
      }
      if (failure == null) {
        send(exchange, 200, "text/plain", "ok\n");
      } else {
        send(exchange, 503, "text/plain", failure + "\n");
      }
    }
  }

  private static void send(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdown();
  }
}
