package dev.toolgate.operator.reconcile;

import dev.toolgate.operator.crd.ToolPolicy;
import dev.toolgate.operator.crd.ToolPolicyStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/** A ToolPolicy's status: its conditions, and the one way it is written. */
final class StatusWriter {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  static final int STATUS_ATTEMPTS = 5;

  private final KubernetesClient client;
  private final Clock clock;

  StatusWriter(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  /**
   * A JSON patch of the status subresource that replaces the status whole and carries the
   * resourceVersion it was computed from, so the API server answers 409 when the object changed
   * since (controller-runtime's optimistic lock); the write is then tried again on the version it
   * holds now, at most {@link #STATUS_ATTEMPTS} times. The spec is never written. (A JSON patch,
   * not a merge patch: fabric8's mock server merges lists a merge patch must replace.)
   */
  void write(ToolPolicy policy, ToolPolicyStatus status) {
    var resource =
        client
            .resources(ToolPolicy.class)
            .inNamespace(policy.getMetadata().getNamespace())
            .withName(policy.getMetadata().getName());
    String version = policy.getMetadata().getResourceVersion();
    for (int attempt = 1; ; attempt++) {
      String patch =
          SERIALIZATION.asJson(
              List.of(
                  Map.of("op", "replace", "path", "/metadata/resourceVersion", "value", version),
                  Map.of("op", "add", "path", "/status", "value", status)));
      try {
        resource.subresource("status").patch(PatchContext.of(PatchType.JSON), patch);
        return;
      } catch (KubernetesClientException e) {
        ToolPolicy fresh = e.getCode() == HttpURLConnection.HTTP_CONFLICT ? resource.get() : null;
        if (fresh == null || attempt == STATUS_ATTEMPTS) {
          throw e;
        }
        version = fresh.getMetadata().getResourceVersion();
      }
    }
  }

  /**
   * Sets a condition, with the generation it was computed from; its transition time moves only when
   * its status changes.
   */
  void condition(
      ToolPolicyStatus status, String type, String value, String reason, String message) {
    ToolPolicyStatus.Condition c =
        status.conditions.stream().filter(x -> type.equals(x.type)).findFirst().orElse(null);
    if (c == null) {
      c = new ToolPolicyStatus.Condition();
      c.type = type;
      status.conditions.add(c);
    }
    if (!value.equals(c.status)) {
      c.lastTransitionTime = clock.instant().toString();
    }
    c.status = value;
    c.observedGeneration = status.observedGeneration;
    c.reason = reason;
    c.message = message;
  }
}
