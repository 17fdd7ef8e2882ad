package dev.toolgate.operator.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.toolgate.operator.inject.AdmissionReviews;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManagerFactory;
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

  private WebhookServer(HttpsServer server) {
    this.server = server;
  }

  public static WebhookServer start(
      String host, int port, WebhookCertificates certificates, AdmissionReviews reviews)
      throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    char[] password = new char[0];
    store.setKeyEntry(
        "webhook",
        certificates.serverKeys().getPrivate(),
        password,
        new Certificate[] {certificates.server(), certificates.ca()});
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, password);
    SSLContext tls = SSLContext.getInstance("TLSv1.3");
    tls.init(keys.getKeyManagers(), null, null);
    HttpsServer server = HttpsServer.create(new InetSocketAddress(host, port), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    server.setExecutor(Executors.newFixedThreadPool(2));
    server.createContext("/mutate", exchange -> handle(exchange, reviews));
    server.start();
    return new WebhookServer(server);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static void handle(HttpExchange exchange, AdmissionReviews reviews) throws IOException {
    try (exchange) {
      if (!"POST".equals(exchange.getRequestMethod())) {
        respond(exchange, 405, "{\"error\":\"POST an AdmissionReview\"}");
        return;
      }
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readNBytes(MAX_BODY_BYTES + 1);
      }
      if (body.length > MAX_BODY_BYTES) {
        respond(exchange, 413, "{\"error\":\"the review is larger than 1 MiB\"}");
        return;
      }
      try {
        respond(exchange, 200, reviews.review(new String(body, StandardCharsets.UTF_8)));
      } catch (RuntimeException e) {
        LOG.warn("refused an admission review: {}", e.getMessage());
        respond(exchange, 400, "{\"error\":\"not an AdmissionReview\"}");
      }
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

  @Override
  public void close() {
    server.stop(0);
  }
}
