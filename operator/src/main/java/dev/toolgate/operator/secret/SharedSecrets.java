package dev.toolgate.operator.secret;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.Map;

/**
 * Secrets of the operator's namespace that every replica reads and any may write first (the
 * configuration-signing key, the state service's and the webhook's certificates). Two replicas that
 * write at once are told apart by the API server's optimistic concurrency: the loser's create or
 * update is answered 409, and it takes what won.
 */
public final class SharedSecrets {

  private SharedSecrets() {}

  /** A Secret of Toolgate's, with this data (base64 values). */
  public static Secret of(String namespace, String name, String type, Map<String, String> data) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .addToLabels("app.kubernetes.io/part-of", "toolgate")
        .endMetadata()
        .withType(type)
        .withData(data)
        .build();
  }

  /** The Secret, or null when there is none. */
  public static Secret get(KubernetesClient client, String namespace, String name) {
    return client.secrets().inNamespace(namespace).withName(name).get();
  }

  /** Creates {@code secret}; when another replica created it first, the one it created. */
  public static Secret createOrRead(KubernetesClient client, Secret secret) {
    try {
      return client.secrets().inNamespace(namespace(secret)).resource(secret).create();
    } catch (KubernetesClientException e) {
      return theWinner(client, secret, e);
    }
  }

  /**
   * Updates {@code secret}, which carries the resourceVersion it was read at; when another replica
   * updated it since, the Secret as that replica left it.
   */
  public static Secret updateOrRead(KubernetesClient client, Secret secret) {
    try {
      return client.secrets().inNamespace(namespace(secret)).resource(secret).update();
    } catch (KubernetesClientException e) {
      return theWinner(client, secret, e);
    }
  }

  private static Secret theWinner(
      KubernetesClient client, Secret secret, KubernetesClientException e) {
    if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
      throw e;
    }
    return get(client, namespace(secret), secret.getMetadata().getName());
  }

  private static String namespace(Secret secret) {
    return secret.getMetadata().getNamespace();
  }
}
