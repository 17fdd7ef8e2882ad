package dev.toolgate.sidecar.notify;

import dev.toolgate.policy.model.QuotaNotify;
import dev.toolgate.sidecar.metrics.ToolgateMetrics;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemTrustOptions;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells an administrator's webhook about a write-quota block (seed 002), over HTTPS, signed, with a
 * few retries. Fire and forget: a failing webhook never delays nor blocks a call; failures are
 * logged and counted ({@code toolgate_notifications_total{outcome}}).
 *
 * <p>Signature: {@code Toolgate-Signature: t=<epoch seconds>,v1=<hex HMAC-SHA256 over "t.body">}
 * with the key of {@code quotas.notify.secretFile}; the receiver recomputes it and rejects stale
 * timestamps.
 */
public final class WebhookNotifier {

  private static final Logger LOG = LoggerFactory.getLogger(WebhookNotifier.class);
  public static final int MAX_ATTEMPTS = 3;
  static final long FIRST_BACKOFF_MS = 200;
  static final int TIMEOUT_MS = 2_000;

  private final Vertx vertx;
  private final ToolgateMetrics metrics;
  private final Clock clock;

  public WebhookNotifier(Vertx vertx, ToolgateMetrics metrics, Clock clock) {
    this.vertx = vertx;
    this.metrics = metrics;
    this.clock = clock;
  }

  /** Sends the notification in the background. */
  public void send(QuotaNotify target, JsonObject notification) {
    vertx
        .fileSystem()
        .readFile(target.secretFile())
        .onSuccess(secret -> attempt(target, notification.toBuffer(), secret.toString().strip(), 1))
        .onFailure(
            e -> {
              LOG.warn("cannot read quotas.notify.secretFile: {}", e.toString());
              metrics.notification("failed");
            });
  }

  private void attempt(QuotaNotify target, Buffer body, String secret, int attempt) {
    URI url = URI.create(target.webhookUrl());
    HttpClientOptions options = new HttpClientOptions().setSsl(true).setConnectTimeout(TIMEOUT_MS);
    if (target.caFile() != null) {
      options.setTrustOptions(new PemTrustOptions().addCertPath(target.caFile()));
    }
    HttpClient client = vertx.createHttpClient(options);
    long t = clock.millis() / 1000;
    String signature = "t=" + t + ",v1=" + hmac(secret, t + "." + body);
    client
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setAbsoluteURI(url.toString())
                .setIdleTimeout(TIMEOUT_MS))
        .compose(
            req ->
                req.putHeader("Content-Type", "application/json")
                    .putHeader("Toolgate-Signature", signature)
                    .send(body))
        .compose(res -> res.body().map(b -> res.statusCode()))
        .andThen(x -> client.close())
        .compose(
            status ->
                status >= 200 && status < 300
                    ? Future.succeededFuture(status)
                    : Future.failedFuture("HTTP " + status))
        .onSuccess(status -> metrics.notification("delivered"))
        .onFailure(
            e -> {
              if (attempt < MAX_ATTEMPTS) {
                vertx.setTimer(
                    FIRST_BACKOFF_MS << (attempt - 1),
                    id -> attempt(target, body, secret, attempt + 1));
              } else {
                LOG.warn(
                    "quota notification to {} failed after {} attempts: {}",
                    url.getHost(),
                    attempt,
                    e.getMessage());
                metrics.notification("failed");
              }
            });
  }

  /** HMAC-SHA256, hex. */
  public static String hmac(String secret, String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JRE", e);
    }
  }
}
