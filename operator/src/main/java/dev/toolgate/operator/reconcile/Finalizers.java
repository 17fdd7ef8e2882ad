package dev.toolgate.operator.reconcile;

import dev.toolgate.operator.crd.ToolPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Adds and removes a finalizer with a JSON patch that carries the resourceVersion read, so a
 * concurrent change makes the API server answer 409 (the work queue tries again) rather than one
 * list of finalizers overwriting another.
 */
final class Finalizers {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private Finalizers() {}

  static void add(KubernetesClient client, ToolPolicy policy, String finalizer) {
    List<String> current = finalizers(policy);
    if (!current.contains(finalizer)) {
      List<String> next = new ArrayList<>(current);
      next.add(finalizer);
      write(client, policy, next);
    }
  }

  static void remove(KubernetesClient client, ToolPolicy policy, String finalizer) {
    List<String> current = finalizers(policy);
    if (current.contains(finalizer)) {
      List<String> next = new ArrayList<>(current);
      next.remove(finalizer);
      write(client, policy, next);
    }
  }

  private static List<String> finalizers(ToolPolicy policy) {
    List<String> finalizers = policy.getMetadata().getFinalizers();
    return finalizers == null ? List.of() : finalizers;
  }

  private static void write(KubernetesClient client, ToolPolicy policy, List<String> finalizers) {
    String patch =
        SERIALIZATION.asJson(
            List.of(
                Map.of(
                    "op",
                    "replace",
                    "path",
                    "/metadata/resourceVersion",
                    "value",
                    policy.getMetadata().getResourceVersion()),
                Map.of("op", "add", "path", "/metadata/finalizers", "value", finalizers)));
    ToolPolicy patched =
        client
            .resources(ToolPolicy.class)
            .inNamespace(policy.getMetadata().getNamespace())
            .withName(policy.getMetadata().getName())
            .patch(PatchContext.of(PatchType.JSON), patch);
    if (patched != null) {
      policy.getMetadata().setResourceVersion(patched.getMetadata().getResourceVersion());
      policy.getMetadata().setFinalizers(patched.getMetadata().getFinalizers());
    }
  }
}
