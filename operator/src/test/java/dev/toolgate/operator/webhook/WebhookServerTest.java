package dev.toolgate.operator.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.operator.inject.AdmissionReviews;
import dev.toolgate.operator.inject.SidecarInjector;
import dev.toolgate.operator.inject.SidecarInjectorTest;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The webhook over real TLS on loopback, trusted through the CA the operator generated. */
class WebhookServerTest {

  private WebhookServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static HttpClient trusting(WebhookCertificates certs) throws Exception {
    return HttpClient.newBuilder().sslContext(tls(certs)).build();
  }

  /** TLS that trusts the CA of {@code certs} alone. */
  private static SSLContext tls(WebhookCertificates certs) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", certs.ca());
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext tls = SSLContext.getInstance("TLSv1.3");
    tls.init(null, tmf.getTrustManagers(), null);
    return tls;
  }

  private String review() throws Exception {
    KubernetesSerialization json = new KubernetesSerialization();
    Pod pod = json.unmarshal(Files.readString(SidecarInjectorTest.POD), Pod.class);
    return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\","
        + "\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},\"namespace\":\"ops\",\"object\":"
        + json.asJson(pod)
        + "}}";
  }

  @Test
  void answersAReviewOverTlsWithTheGeneratedCertificate() throws Exception {
    WebhookCertificates certs =
        WebhookCertificates.generate(
            List.of("localhost", "127.0.0.1"), Instant.now(), WebhookTls.SERVER_VALIDITY);
    server =
        WebhookServer.start(
            "127.0.0.1",
            0,
            certs,
            new AdmissionReviews(new SidecarInjector(SidecarInjectorTest.OPTIONS)));

    HttpResponse<String> response =
        trusting(certs)
            .send(
                HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/mutate"))
                    .POST(HttpRequest.BodyPublishers.ofString(review()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("\"patchType\":\"JSONPatch\"").contains("\"uid\":\"u\"");
    assertThat(certs.caPem()).startsWith("-----BEGIN CERTIFICATE-----");
  }

  @Test
  void aClientThatDoesNotTrustTheCaCannotTalkToIt() throws Exception {
    WebhookCertificates certs =
        WebhookCertificates.generate(
            List.of("localhost"), Instant.now(), WebhookTls.SERVER_VALIDITY);
    WebhookCertificates other =
        WebhookCertificates.generate(
            List.of("localhost"), Instant.now(), WebhookTls.SERVER_VALIDITY);
    server =
        WebhookServer.start(
            "127.0.0.1",
            0,
            certs,
            new AdmissionReviews(new SidecarInjector(SidecarInjectorTest.OPTIONS)));

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                trusting(other)
                    .send(
                        HttpRequest.newBuilder(
                                URI.create("https://localhost:" + server.port() + "/mutate"))
                            .POST(HttpRequest.BodyPublishers.ofString("{}"))
                            .build(),
                        HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(SSLHandshakeException.class);
  }

  @Test
  void servesCertificatesIssuedByCertManagerFromTheirMountedSecret(@TempDir Path mounted)
      throws Exception {
    WebhookCertificates issued =
        WebhookCertificates.generate(
            List.of("localhost"), Instant.now(), WebhookTls.SERVER_VALIDITY);
    issued.writeTo(mounted);

    WebhookCertificates loaded = WebhookCertificates.load(mounted);
    server =
        WebhookServer.start(
            "127.0.0.1",
            0,
            loaded,
            new AdmissionReviews(new SidecarInjector(SidecarInjectorTest.OPTIONS)));

    HttpResponse<String> response =
        trusting(issued)
            .send(
                HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/mutate"))
                    .POST(HttpRequest.BodyPublishers.ofString(review()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(loaded.server()).isEqualTo(issued.server());
  }

  @Test
  void refusesGarbageWith400() throws Exception {
    WebhookCertificates certs =
        WebhookCertificates.generate(
            List.of("localhost"), Instant.now(), WebhookTls.SERVER_VALIDITY);
    server =
        WebhookServer.start(
            "127.0.0.1",
            0,
            certs,
            new AdmissionReviews(new SidecarInjector(SidecarInjectorTest.OPTIONS)));

    HttpResponse<String> response =
        trusting(certs)
            .send(
                HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/mutate"))
                    .POST(HttpRequest.BodyPublishers.ofString("not json"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(400);
  }

  @Test
  void aStopAnswersTheReviewInFlightBeforeClosing() throws Exception {
    WebhookCertificates certs =
        WebhookCertificates.generate(
            List.of("localhost"), Instant.now(), WebhookTls.SERVER_VALIDITY);
    server =
        WebhookServer.start(
            "127.0.0.1",
            0,
            certs,
            new AdmissionReviews(new SidecarInjector(SidecarInjectorTest.OPTIONS)));
    byte[] body = review().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    SSLContext tls = tls(certs);

    try (javax.net.ssl.SSLSocket socket =
        (javax.net.ssl.SSLSocket) tls.getSocketFactory().createSocket("localhost", server.port())) {
      var out = socket.getOutputStream();
      out.write(
          ("POST /mutate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  + "Content-Length: "
                  + body.length
                  + "\r\nConnection: close\r\n\r\n")
              .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      out.write(body, 0, body.length / 2);
      out.flush();
      WebhookServer stopping = server;
      server = null;
      int port = stopping.port();
      var stopped = java.util.concurrent.CompletableFuture.runAsync(() -> stopping.stop(10));
      org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(5))
          .alias("the listener closes while the review is in flight")
          .until(() -> refuses(port));

      out.write(body, body.length / 2, body.length - body.length / 2);
      out.flush();
      String answer =
          new String(
              socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);

      assertThat(answer).startsWith("HTTP/1.1 200").contains("\"uid\":\"u\"");
      stopped.get(15, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  private static boolean refuses(int port) {
    try (java.net.Socket probe = new java.net.Socket("127.0.0.1", port)) {
      return false;
    } catch (java.io.IOException e) {
      return true;
    }
  }

  @Test
  void theCertificateNamesEveryNameTheServiceIsCalledBy() {
    assertThat(WebhookCertificates.serviceNames("toolgate-webhook", "toolgate"))
        .contains("toolgate-webhook.toolgate.svc", "toolgate-webhook.toolgate.svc.cluster.local");
  }
}
