package dev.toolgate.operator.sign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.trust.SigningKey;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class SigningKeySecretTest {

  KubernetesClient client;

  @Test
  void theFirstReplicaCreatesTheKeyAndEveryLaterOneReadsTheSameKey() {
    AtomicInteger generated = new AtomicInteger();
    SigningKey first =
        SigningKeySecret.loadOrCreate(
            client,
            "toolgate",
            "toolgate-config-signing",
            () -> SigningKey.generate("k" + generated.incrementAndGet()));
    SigningKey second =
        SigningKeySecret.loadOrCreate(
            client,
            "toolgate",
            "toolgate-config-signing",
            () -> SigningKey.generate("k" + generated.incrementAndGet()));

    assertThat(generated).hasValue(1);
    assertThat(second.keyId()).isEqualTo(first.keyId());
    assertThat(second.toPrivateJson()).isEqualTo(first.toPrivateJson());
    assertThat(
            client
                .secrets()
                .inNamespace("toolgate")
                .withName("toolgate-config-signing")
                .get()
                .getData())
        .containsOnlyKeys(SigningKeySecret.DATA_KEY);
  }
}
