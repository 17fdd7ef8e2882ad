package dev.toolgate.operator.webhook;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Puts the operator's CA into the MutatingWebhookConfiguration the chart installs, so the API
 * server trusts the webhook's certificate. Only the {@code caBundle} fields change.
 */
public final class CaBundle {

  private CaBundle() {}

  /** Returns how many webhooks were updated; 0 when the configuration does not exist (yet). */
  public static int ensure(KubernetesClient client, String configuration, String caPem) {
    MutatingWebhookConfiguration current =
        client
            .admissionRegistration()
            .v1()
            .mutatingWebhookConfigurations()
            .withName(configuration)
            .get();
    if (current == null) {
      return 0;
    }
    String bundle = Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.UTF_8));
    int changed = 0;
    for (MutatingWebhook webhook : current.getWebhooks()) {
      if (!bundle.equals(webhook.getClientConfig().getCaBundle())) {
        webhook.getClientConfig().setCaBundle(bundle);
        changed++;
      }
    }
    if (changed > 0) {
      client
          .admissionRegistration()
          .v1()
          .mutatingWebhookConfigurations()
          .resource(current)
          .update();
    }
    return changed;
  }
}
