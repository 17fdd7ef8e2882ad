package dev.toolgate.operator.webhook;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * TLS material a server presents: its certificate, its key and the CA that issued it. Generated
 * (the state service's Secret), taken from the shared {@link WebhookTls}, or read from files
 * cert-manager mounts.
 *
 * @param ca the CA certificate
 * @param server the server certificate, signed by the CA
 * @param serverKeys the server's key pair
 */
public record WebhookCertificates(X509Certificate ca, X509Certificate server, KeyPair serverKeys) {

  /** Generates a CA (valid four times as long) and a server certificate for these names. */
  public static WebhookCertificates generate(List<String> names, Instant now, Duration validity) {
    WebhookTls.Authority ca = Certificates.authority(now, validity.multipliedBy(4));
    KeyPair keys = Certificates.keyPair();
    return new WebhookCertificates(
        ca.certificate(), Certificates.server(ca, names, keys, now, validity), keys);
  }

  /** What a replica serves of the shared state: its serving certificate and the issuing CA. */
  public static WebhookCertificates of(WebhookTls tls) {
    return new WebhookCertificates(tls.current().certificate(), tls.server(), tls.serverKeys());
  }

  /** The CA in PEM. */
  public String caPem() {
    return Certificates.pem(ca);
  }

  /** The server certificate in PEM. */
  public String serverPem() {
    return Certificates.pem(server);
  }

  /** The server's private key, PKCS#8 PEM. */
  public String keyPem() {
    return Certificates.pem(serverKeys.getPrivate());
  }

  /**
   * Certificates issued by cert-manager instead: the Secret's {@code tls.crt}, {@code tls.key} and
   * {@code ca.crt} mounted in {@code dir} (cert-manager's cainjector then keeps the caBundle).
   */
  public static WebhookCertificates load(Path dir) throws IOException {
    X509Certificate server =
        Certificates.certificates(Files.readString(dir.resolve("tls.crt"))).get(0);
    X509Certificate ca = Certificates.certificates(Files.readString(dir.resolve("ca.crt"))).get(0);
    return new WebhookCertificates(
        ca, server, Certificates.keyPair(Files.readString(dir.resolve("tls.key")), server));
  }

  /** PEM of the certificates and key, as cert-manager would mount them (for tests and tools). */
  public void writeTo(Path dir) throws IOException {
    Files.writeString(dir.resolve("tls.crt"), serverPem());
    Files.writeString(dir.resolve("tls.key"), keyPem());
    Files.writeString(dir.resolve("ca.crt"), caPem());
  }

  /** The Service names the API server uses to call the webhook. */
  public static List<String> serviceNames(String service, String namespace) {
    return List.of(
        service + "." + namespace + ".svc",
        service,
        service + "." + namespace,
        service + "." + namespace + ".svc.cluster.local");
  }
}
