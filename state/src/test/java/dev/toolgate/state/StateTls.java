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
    WebhookCertificates.generate(List.of("localhost"), Instant.now()).writeTo(dir);
    return dir;
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
