package dev.toolgate.state;

import dev.toolgate.operator.webhook.WebhookCertificates;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A CA and a certificate for {@code localhost}, written as the chart's Secret would mount them. */
final class StateTls {

  private StateTls() {}

  static Path write(Path dir) throws Exception {
    WebhookCertificates.generate(List.of("localhost"), Instant.now(), java.time.Duration.ofDays(90))
        .writeTo(dir);
    return dir;
  }

  /**
   * One member on loopback with the certificate in {@code dir}, its API on a free port, in a
   * cluster of its own.
   */
  static StateService.Options oneMember(Path dir, String clusterPrefix) throws Exception {
    int member = dev.toolgate.e2e.support.LoopbackPorts.next();
    return new StateService.Options(
        "127.0.0.1",
        0,
        dir.resolve("tls.crt").toString(),
        dir.resolve("tls.key").toString(),
        "127.0.0.1",
        member,
        List.of("127.0.0.1:" + member),
        clusterPrefix + "-" + java.util.UUID.randomUUID());
  }

  /** An HTTP client that trusts the CA in {@code dir} and nothing else. */
  static HttpClient client(Path dir) throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream ca = Files.newInputStream(dir.resolve("ca.crt"))) {
      trust.setCertificateEntry(
          "ca", CertificateFactory.getInstance("X.509").generateCertificate(ca));
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(5)).build();
  }
}
