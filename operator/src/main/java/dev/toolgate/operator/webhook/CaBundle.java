package dev.toolgate.operator.webhook;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;

/**
 * Puts the operator's CA into the MutatingWebhookConfiguration the chart installs, so the API
 * server trusts the webhook's certificate. Only the {@code caBundle} fields change.
 */
public final class CaBundle {

  private CaBundle() {}

  /**
   * Null when every webhook of the configuration trusts {@code served} (a CA of its caBundle signed
   * it), else why not.
   */
  public static String trustGap(
      KubernetesClient client, String configuration, X509Certificate served) throws IOException {
    MutatingWebhookConfiguration config = get(client, configuration);
    if (config == null) {
      return "the MutatingWebhookConfiguration " + configuration + " does not exist";
    }
    for (MutatingWebhook webhook : config.getWebhooks()) {
      String bundle = webhook.getClientConfig().getCaBundle();
      List<X509Certificate> trusted =
          bundle == null || bundle.isBlank()
              ? List.of()
              : Certificates.certificates(
                  new String(Base64.getDecoder().decode(bundle), StandardCharsets.US_ASCII));
      if (trusted.stream().noneMatch(ca -> Certificates.signedBy(served, ca))) {
        return "the caBundle of webhook "
            + webhook.getName()
            + " does not trust the served certificate yet";
      }
    }
    return null;
  }

  private static MutatingWebhookConfiguration get(KubernetesClient client, String configuration) {
    return client
        .admissionRegistration()
        .v1()
        .mutatingWebhookConfigurations()
        .withName(configuration)
        .get();
  }

  /** Returns how many webhooks were updated; 0 when the configuration does not exist (yet). */
  public static int ensure(KubernetesClient client, String configuration, String caPem) {
    MutatingWebhookConfiguration current = get(client, configuration);
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
