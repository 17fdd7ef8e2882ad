package dev.toolgate.operator.state;

import dev.toolgate.operator.secret.SharedSecrets;
import dev.toolgate.operator.webhook.WebhookCertificates;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The state service's TLS Secret ({@code tls.crt}, {@code tls.key}, {@code ca.crt}) in the
 * operator's namespace. The first operator replica creates it; the state members mount it; the
 * operator reads its CA and puts it into every configuration it signs, so a sidecar trusts that CA
 * and nothing a ConfigMap could swap.
 */
public final class StateTlsSecret {

  /** The server certificate's life; the CA's is four times as long. */
  public static final Duration VALIDITY = Duration.ofDays(5 * 365);

  private StateTlsSecret() {}

  /** The CA (PEM), creating the Secret for {@code names} when there is none yet. */
  public static String caOf(
      KubernetesClient client, String namespace, String name, List<String> names, Instant now) {
    Secret existing = SharedSecrets.get(client, namespace, name);
    if (existing != null) {
      return ca(existing);
    }
    WebhookCertificates certs = WebhookCertificates.generate(names, now, VALIDITY);
    Secret secret =
        SharedSecrets.of(
            namespace,
            name,
            "kubernetes.io/tls",
            Map.of(
                "tls.crt", base64(certs.serverPem()),
                "tls.key", base64(certs.keyPem()),
                "ca.crt", base64(certs.caPem())));
    return ca(SharedSecrets.createOrRead(client, secret));
  }

  /** The names a certificate for the Service {@code service} must carry. */
  public static List<String> names(String service, String namespace) {
    return List.of(
        service,
        service + "." + namespace,
        service + "." + namespace + ".svc",
        service + "." + namespace + ".svc.cluster.local");
  }

  private static String ca(Secret secret) {
    String encoded = secret.getData() == null ? null : secret.getData().get("ca.crt");
    if (encoded == null) {
      throw new IllegalStateException(
          "Secret " + secret.getMetadata().getName() + " has no ca.crt");
    }
    return new String(Base64.getDecoder().decode(encoded), StandardCharsets.US_ASCII);
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }
}
