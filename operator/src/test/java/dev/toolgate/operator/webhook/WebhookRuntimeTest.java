package dev.toolgate.operator.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.operator.health.OperatorMetrics;
import dev.toolgate.operator.inject.AdmissionReviews;
import dev.toolgate.operator.inject.SidecarInjector;
import dev.toolgate.operator.inject.SidecarInjectorTest;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two operator replicas on one API server (fabric8's mock, CRUD): a review sent through either one
 * verifies against the caBundle of the webhook configuration, as the API server checks it, before,
 * during and after a rotation of the CA, whichever replica has rotated first.
 */
@EnableKubernetesMockClient(crud = true)
class WebhookRuntimeTest {

  private static final String CONFIGURATION = "toolgate-injector";
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  KubernetesClient client;

  private final List<WebhookRuntime> replicas = new ArrayList<>();
  private final OperatorMetrics metrics = OperatorMetrics.inMemory();

  /** A replica's clock, moved by the test. */
  private static final class TestClock extends Clock {
    private volatile Instant now = T0;

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  private final TestClock clockA = new TestClock();
  private final TestClock clockB = new TestClock();

  @BeforeEach
  void installTheWebhookConfigurationAsTheChartDoes() {
    ChartWebhookConfiguration.create(client, CONFIGURATION);
  }

  @AfterEach
  void stopReplicas() {
    replicas.forEach(WebhookRuntime::close);
  }

  private WebhookRuntime replica(Clock clock) throws Exception {
    WebhookRuntime replica =
        WebhookRuntime.start(
            client,
            CONFIGURATION,
            new WebhookRuntime.Shared(
                new WebhookTlsSecret(
                    client, "toolgate", "toolgate-webhook-certs", List.of("localhost"))),
            clock,
            "127.0.0.1",
            0,
            new AdmissionReviews(new SidecarInjector(SidecarInjectorTest.OPTIONS)),
            metrics);
    replicas.add(replica);
    return replica;
  }

  /** The caBundle the API server reads now. */
  private List<X509Certificate> caBundle() throws Exception {
    String bundle =
        client
            .admissionRegistration()
            .v1()
            .mutatingWebhookConfigurations()
            .withName(CONFIGURATION)
            .get()
            .getWebhooks()
            .get(0)
            .getClientConfig()
            .getCaBundle();
    return Certificates.certificates(
        new String(Base64.getDecoder().decode(bundle), StandardCharsets.US_ASCII));
  }

  /** Sends a review as the API server would: trusting {@code bundle} alone, at {@code at}. */
  private static int review(WebhookRuntime replica, List<X509Certificate> bundle, Instant at)
      throws Exception {
    SSLContext tls = SSLContext.getInstance("TLSv1.3");
    tls.init(null, new X509TrustManager[] {new TrustAt(bundle, at)}, null);
    KubernetesSerialization json = new KubernetesSerialization();
    Pod pod = json.unmarshal(Files.readString(SidecarInjectorTest.POD), Pod.class);
    String review =
        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
            + "\"uid\":\"u\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
            + "\"namespace\":\"ops\",\"object\":"
            + json.asJson(pod)
            + "}}";
    HttpClient http = HttpClient.newBuilder().sslContext(tls).build();
    try {
      return http.send(
              HttpRequest.newBuilder(URI.create("https://localhost:" + replica.port() + "/mutate"))
                  .POST(HttpRequest.BodyPublishers.ofString(review))
                  .build(),
              HttpResponse.BodyHandlers.ofString())
          .statusCode();
    } catch (java.io.IOException e) {
      return -1;
    }
  }

  @Test
  void bothReplicasServeTheSharedCertificateWhichTheCaBundleTrusts() throws Exception {
    WebhookRuntime a = replica(clockA);
    WebhookRuntime b = replica(clockB);

    assertThat(a.notReady()).isNull();
    assertThat(b.notReady()).isNull();
    assertThat(caBundle()).hasSize(1);
    assertThat(review(a, caBundle(), T0)).isEqualTo(200);
    assertThat(review(b, caBundle(), T0)).isEqualTo(200);
    assertThat(
            metrics
                .registry()
                .get("toolgate_operator_webhook_review")
                .tag("result", "injected")
                .timer()
                .count())
        .isEqualTo(2);
    assertThat(
            metrics
                .registry()
                .get("toolgate_operator_webhook_certificate_seconds_left")
                .gauge()
                .value())
        .isGreaterThan(Duration.ofDays(89).toSeconds());
    assertThat(client.secrets().inNamespace("toolgate").list().getItems())
        .extracting(s -> s.getMetadata().getName())
        .containsExactly("toolgate-webhook-certs");
  }

  @Test
  void noReviewFailsWhileTheReplicasRotateTheCaOneAfterTheOther() throws Exception {
    WebhookRuntime a = replica(clockA);
    WebhookRuntime b = replica(clockB);
    clockA.now = T0.plus(Duration.ofDays(170));
    clockB.now = clockA.now;
    a.maintain();
    b.maintain();
    assertThat(a.notReady()).isNull();
    assertThat(b.notReady()).isNull();
    List<X509Certificate> first = caBundle();
    assertThat(first).as("the serving certificate was reissued, the CA kept").hasSize(1);

    clockA.now = T0.plus(Duration.ofDays(181));
    a.maintain();
    List<X509Certificate> staged = caBundle();
    assertThat(staged).hasSize(2).containsAll(first);
    assertThat(review(b, staged, clockA.now)).as("B not yet maintained, new bundle").isEqualTo(200);
    assertThat(review(a, first, clockA.now)).as("A, the bundle before").isEqualTo(200);

    clockB.now = T0.plus(Duration.ofDays(241));
    b.maintain();
    Instant promoted = clockB.now;
    assertThat(review(b, staged, promoted))
        .as("B serves the promoted CA's certificate; the API server still holds the staged bundle")
        .isEqualTo(200);
    assertThat(review(a, caBundle(), promoted))
        .as("A still serves the old CA's certificate against the bundle after promotion")
        .isEqualTo(200);
    assertThat(review(b, caBundle(), promoted)).isEqualTo(200);

    clockA.now = promoted;
    a.maintain();
    assertThat(a.notReady()).isNull();
    assertThat(review(a, first, promoted))
        .as("A now serves the new CA's certificate, which the first bundle never trusted")
        .isEqualTo(-1);
    assertThat(review(a, caBundle(), promoted)).isEqualTo(200);
  }

  @Test
  void aReplicaIsNotReadyWhileTheWebhookConfigurationDoesNotTrustWhatItServes() throws Exception {
    WebhookRuntime a = replica(clockA);
    client
        .admissionRegistration()
        .v1()
        .mutatingWebhookConfigurations()
        .withName(CONFIGURATION)
        .delete();

    a.maintain();

    assertThat(a.notReady()).contains("does not exist");
  }

  /** PKIX validation of the server's chain at a given time, as a trust manager. */
  private record TrustAt(List<X509Certificate> bundle, Instant at) implements X509TrustManager {
    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      try {
        PKIXParameters parameters =
            new PKIXParameters(
                bundle.stream().map(ca -> new TrustAnchor(ca, null)).collect(Collectors.toSet()));
        parameters.setRevocationEnabled(false);
        parameters.setDate(Date.from(at));
        CertPathValidator.getInstance("PKIX")
            .validate(
                CertificateFactory.getInstance("X.509").generateCertPath(List.of(chain[0])),
                parameters);
      } catch (java.security.GeneralSecurityException e) {
        throw new CertificateException(e);
      }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
      throw new UnsupportedOperationException();
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return bundle.toArray(X509Certificate[]::new);
    }
  }
}
