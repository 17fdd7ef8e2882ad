package dev.toolgate.operator.webhook;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** The MutatingWebhookConfiguration as the chart installs it, without a caBundle. */
final class ChartWebhookConfiguration {

  private ChartWebhookConfiguration() {}

  static void create(KubernetesClient client, String name) {
    client
        .admissionRegistration()
        .v1()
        .mutatingWebhookConfigurations()
        .resource(
            new MutatingWebhookConfigurationBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addNewWebhook()
                .withName("inject.toolgate.dev")
                .withNewClientConfig()
                .withNewService()
                .withName("toolgate-webhook")
                .withNamespace("toolgate")
                .withPath("/mutate")
                .endService()
                .endClientConfig()
                .withAdmissionReviewVersions("v1")
                .withSideEffects("None")
                .endWebhook()
                .build())
        .create();
  }
}
