package dev.toolgate.operator.sign;

import dev.toolgate.operator.secret.SharedSecrets;
import dev.toolgate.trust.SigningKey;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
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
    Secret existing = SharedSecrets.get(client, namespace, name);
    if (existing != null) {
      return read(existing);
    }
    SigningKey created = generate.get();
    Secret secret =
        SharedSecrets.of(
            namespace,
            name,
            "Opaque",
            Map.of(
                DATA_KEY,
                Base64.getEncoder()
                    .encodeToString(created.toPrivateJson().getBytes(StandardCharsets.UTF_8))));
    // Another replica may have created it first: the key is the one that won.
    return read(SharedSecrets.createOrRead(client, secret));
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
