package dev.toolgate.operator.inject;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;

/**
 * The workload a pod belongs to, as {@code <namespace>/<kind>/<name>}: the agent id its sidecar
 * counts per-agent quotas under. Taken from the pod's controller at admission (a Deployment's pods
 * are owned by a ReplicaSet named after it and the pod-template hash), never from anything the
 * agent sends, so two replicas of one Deployment share one id and two namespaces never do.
 */
public final class Workload {

  private Workload() {}

  public static String of(Pod pod, String namespace) {
    Map<String, String> labels =
        pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
    OwnerReference controller =
        pod.getMetadata().getOwnerReferences() == null
            ? null
            : pod.getMetadata().getOwnerReferences().stream()
                .filter(o -> Boolean.TRUE.equals(o.getController()))
                .findFirst()
                .orElse(null);
    if (controller == null) {
      String name = pod.getMetadata().getName();
      if (name == null || name.isEmpty()) {
        String generate = pod.getMetadata().getGenerateName();
        name = generate == null ? "unnamed" : generate.replaceAll("-+$", "");
      }
      return namespace + "/Pod/" + name;
    }
    String hash = labels.get("pod-template-hash");
    if ("ReplicaSet".equals(controller.getKind())
        && hash != null
        && controller.getName().endsWith("-" + hash)) {
      String deployment =
          controller.getName().substring(0, controller.getName().length() - hash.length() - 1);
      return namespace + "/Deployment/" + deployment;
    }
    return namespace + "/" + controller.getKind() + "/" + controller.getName();
  }
}
