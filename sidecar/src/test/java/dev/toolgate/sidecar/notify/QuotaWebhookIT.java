package dev.toolgate.sidecar.notify;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SelfSignedCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A write-quota block reaches the administrator's webhook: HTTPS, signed, retried. */
class QuotaWebhookIT {

  static final String SECRET = "webhook-secret-for-tests-0123456789";

  @TempDir Path dir;
  private final Vertx vertx = Vertx.vertx();
  private SidecarFixture f;
  private HttpServer hook;

  @AfterEach
  void stop() throws Exception {
    if (f != null) {
      f.close();
    }
    if (hook != null) {
      hook.close().await(5, TimeUnit.SECONDS);
    }
    vertx.close().await(5, TimeUnit.SECONDS);
  }

  private record Delivery(String signature, String body) {}

  @Test
  void aWriteQuotaBlockIsSignedAndDeliveredAfterAFailedFirstTry() throws Exception {
    SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
    List<Delivery> received = new CopyOnWriteArrayList<>();
    AtomicInteger tries = new AtomicInteger();
    hook =
        vertx
            .createHttpServer(
                new HttpServerOptions()
                    .setSsl(true)
                    .setKeyCertOptions(cert.keyCertOptions())
                    .setHost("localhost")
                    .setPort(0))
            .requestHandler(
                req ->
                    req.body()
                        .onSuccess(
                            body -> {
                              if (tries.incrementAndGet() == 1) {
                                req.response().setStatusCode(503).end();
                                return;
                              }
                              received.add(
                                  new Delivery(
                                      req.getHeader("Toolgate-Signature"), body.toString()));
                              req.response().setStatusCode(204).end();
                            }))
            .listen()
            .await(5, TimeUnit.SECONDS);
    Path secret = dir.resolve("webhook.secret");
    Files.writeString(secret, SECRET);
    f =
        SidecarFixture.start(
            dir,
            Map.of(),
            "tools:\n  - {name: restart_deployment_job, upstream: deployment-api, effect: idempotent_write,"
                + " idempotency: {keyComponents: [intent_id, /job_id]}}\n"
                + "quotas: {perSession: {read: 200, write: 1}, notify: {webhookUrl: \"https://localhost:"
                + hook.actualPort()
                + "/hook\", secretFile: \""
                + secret
                + "\", caFile: \""
                + cert.certificatePath()
                + "\"}}\n");
    String session = f.initialize(API);

    for (int i = 0; i < 2; i++) {
      f.send(
          f.post(
                  API,
                  SidecarFixture.toolCall(
                      i,
                      "restart_deployment_job",
                      "{\"job_id\":\"j" + i + "\",\"environment\":\"prod\"}",
                      "{\"dev.toolgate/intent-id\":\"i" + i + "\"}"))
              .header("Mcp-Session-Id", session));
    }

    Delivery delivery =
        await().atMost(Duration.ofSeconds(10)).until(() -> received, r -> !r.isEmpty()).get(0);
    JsonObject body = new JsonObject(delivery.body());
    assertThat(body.getString("event")).isEqualTo("quota_block");
    assertThat(body.getString("limit")).isEqualTo("quotas.perSession.write");
    assertThat(body.getString("session")).isEqualTo(session);
    String t = delivery.signature().substring(2, delivery.signature().indexOf(','));
    assertThat(delivery.signature())
        .endsWith("v1=" + WebhookNotifier.hmac(SECRET, t + "." + delivery.body()));
    assertThat(tries.get()).isEqualTo(2);
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () ->
                assertThat(f.admin("/metrics"))
                    .contains("toolgate_notifications_total{outcome=\"delivered\"} 1.0"));
  }
}
