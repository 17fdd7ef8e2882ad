package dev.toolgate.operator.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class CaBundleTest {

  KubernetesClient client;

  @Test
  void patchesTheCaIntoEveryWebhookOfTheConfigurationOnce() {
    ChartWebhookConfiguration.create(client, "toolgate-injector");
    String ca =
        WebhookCertificates.generate(
                List.of("toolgate-webhook.toolgate.svc"), Instant.now(), WebhookTls.SERVER_VALIDITY)
            .caPem();

    assertThat(CaBundle.ensure(client, "toolgate-injector", ca)).isEqualTo(1);
    assertThat(CaBundle.ensure(client, "toolgate-injector", ca)).as("idempotent").isZero();

    MutatingWebhookConfiguration patched =
        client
            .admissionRegistration()
            .v1()
            .mutatingWebhookConfigurations()
            .withName("toolgate-injector")
            .get();
    String bundle = patched.getWebhooks().get(0).getClientConfig().getCaBundle();
    assertThat(new String(Base64.getDecoder().decode(bundle), StandardCharsets.UTF_8))
        .isEqualTo(ca);
  }

  @Test
  void waitsForAConfigurationThatDoesNotExistYet() {
    assertThat(CaBundle.ensure(client, "missing", "pem")).isZero();
  }
}
