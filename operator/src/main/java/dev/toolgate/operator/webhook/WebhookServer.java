package dev.toolgate.operator.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.toolgate.operator.health.OperatorMetrics;
import dev.toolgate.operator.inject.AdmissionReviews;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mutating admission webhook over HTTPS (the JDK's server: no second HTTP stack in the
 * operator). {@code POST /mutate} takes an AdmissionReview and answers it. Bodies over 1 MiB are
 * refused; a failure is answered with 400 and logged, and the webhook configuration's {@code
 * failurePolicy} decides what the API server does then.
 */
public final class WebhookServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WebhookServer.class);
  static final int MAX_BODY_BYTES = 1 << 20;

  private final HttpsServer server;
  private final SwappableKeyManager keys;
  private final java.util.concurrent.ExecutorService handlers;

  private WebhookServer(
      HttpsServer server, SwappableKeyManager keys, java.util.concurrent.ExecutorService handlers) {
    this.server = server;
    this.keys = keys;
    this.handlers = handlers;
  }

  public static WebhookServer start(
      String host, int port, WebhookCertificates certificates, AdmissionReviews reviews)
      throws Exception {
    return start(host, port, certificates, reviews, OperatorMetrics.inMemory());
  }

  /** The same, each review counted and timed in {@code metrics}. */
  public static WebhookServer start(
      String host,
      int port,
      WebhookCertificates certificates,
      AdmissionReviews reviews,
      OperatorMetrics metrics)
      throws Exception {
    SwappableKeyManager keys = new SwappableKeyManager(certificates);
    SSLContext tls = SSLContext.getInstance("TLSv1.3");
    tls.init(new javax.net.ssl.KeyManager[] {keys}, null, null);
    HttpsServer server = HttpsServer.create(new InetSocketAddress(host, port), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    java.util.concurrent.ExecutorService handlers = Executors.newFixedThreadPool(2);
    server.setExecutor(handlers);
    server.createContext("/mutate", exchange -> handle(exchange, reviews, metrics));
    server.start();
    return new WebhookServer(server, keys, handlers);
  }

  /** Serves {@code certificates} to every connection from now on; open ones keep theirs. */
  public void use(WebhookCertificates certificates) {
    keys.use(certificates);
  }

  /** What new connections are served. */
  public WebhookCertificates serving() {
    return keys.current();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static void handle(
      HttpExchange exchange, AdmissionReviews reviews, OperatorMetrics metrics) throws IOException {
    long start = System.nanoTime();
    String result = "error";
    try (exchange) {
      if (!"POST".equals(exchange.getRequestMethod())) {
        result = "refused";
        respond(exchange, 405, "{\"error\":\"POST an AdmissionReview\"}");
        return;
      }
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readNBytes(MAX_BODY_BYTES + 1);
      }
      if (body.length > MAX_BODY_BYTES) {
        result = "refused";
        respond(exchange, 413, "{\"error\":\"the review is larger than 1 MiB\"}");
        return;
      }
      try {
        AdmissionReviews.Answer answer = reviews.answer(new String(body, StandardCharsets.UTF_8));
        result = answer.result();
        respond(exchange, 200, answer.json());
      } catch (RuntimeException e) {
        result = "refused";
        LOG.warn("refused an admission review: {}", e.getMessage());
        respond(exchange, 400, "{\"error\":\"not an AdmissionReview\"}");
      }
    } finally {
      metrics.reviewed(result, Duration.ofNanos(System.nanoTime() - start));
    }
  }

  private static void respond(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /**
   * Stops accepting connections and waits up to {@code drainSeconds} for the reviews in flight to
   * be answered.
   */
  public void stop(int drainSeconds) {
    server.stop(drainSeconds);
    handlers.shutdown();
  }

  @Override
  public void close() {
    stop(0);
  }
}
