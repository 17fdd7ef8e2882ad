package dev.toolgate.operator.sign;

import dev.toolgate.trust.SigningKey;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The operator's configuration-signing key, in a Secret of the operator's namespace that only the
 * operator's ServiceAccount may read (the chart's RBAC names it alone). The first replica to start
 * creates it; every replica then reads the same key. It is never mounted into a pod.
 */
public final class SigningKeySecret {

  /** The Secret's key holding the private JWK. */
  public static final String DATA_KEY = "signing.jwk";

  private SigningKeySecret() {}

  /** Reads the key, creating the Secret with {@code generate}'s key when there is none yet. */
  public static SigningKey loadOrCreate(
      KubernetesClient client, String namespace, String name, Supplier<SigningKey> generate) {
    Secret existing = client.secrets().inNamespace(namespace).withName(name).get();
    if (existing != null) {
      return read(existing);
    }
    SigningKey created = generate.get();
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(namespace)
            .addToLabels("app.kubernetes.io/part-of", "toolgate")
            .endMetadata()
            .withType("Opaque")
            .withData(
                Map.of(
                    DATA_KEY,
                    Base64.getEncoder()
                        .encodeToString(created.toPrivateJson().getBytes(StandardCharsets.UTF_8))))
            .build();
    try {
      client.secrets().inNamespace(namespace).resource(secret).create();
      return created;
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      // Another replica created it first: use that one.
      return read(client.secrets().inNamespace(namespace).withName(name).get());
    }
  }

  private static SigningKey read(Secret secret) {
    String encoded = secret.getData() == null ? null : secret.getData().get(DATA_KEY);
    if (encoded == null) {
      throw new IllegalStateException(
          "Secret " + secret.getMetadata().getName() + " has no " + DATA_KEY);
    }
    return SigningKey.parse(
        new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8));
  }
}
