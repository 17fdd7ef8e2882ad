package dev.toolgate.operator.render;

import dev.toolgate.operator.crd.ToolPolicy;
import dev.toolgate.policy.model.Approval;
import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.validation.PolicyValidator;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Renders a ToolPolicy into the exact file the sidecar reads: the spec's fields at the top level
 * (every default written out, so the file says what is in force) plus the sidecar's own fields.
 * Pure: no I/O, no API server; the reconciler and the offline {@code render} command both use it.
 */
public final class SidecarConfigRenderer {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private SidecarConfigRenderer() {}

  /** A map that keeps its keys in the order given: the rendered file must be byte-stable. */
  private static Map<String, Object> ordered(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  /** Reads a ToolPolicy from YAML or JSON. */
  public static ToolPolicy parse(String text) {
    ToolPolicy policy = SERIALIZATION.unmarshal(text, ToolPolicy.class);
    if (policy == null || policy.getSpec() == null) {
      throw new IllegalArgumentException("not a ToolPolicy with a spec");
    }
    return policy;
  }

  /** The sidecar configuration; throws with every violation when the spec is invalid. */
  public static String render(ToolPolicy resource, RenderOptions options) {
    Policy spec = PolicyValidator.requireValid(resource.getSpec());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("revision", options.revision());
    out.put("listen", ordered("host", "127.0.0.1", "port", options.listenPort()));
    // The admin port serves the Prometheus scrape, so it listens on the pod's address.
    Map<String, Object> admin = ordered("host", options.adminHost(), "port", options.adminPort());
    if (options.adminTokenFile() != null) {
      admin.put("tokenFile", options.adminTokenFile());
    }
    out.put("admin", admin);
    if (options.warmupCalls() != null) {
      out.put("runtime", ordered("warmupCalls", options.warmupCalls()));
    }
    out.put("agent", ordered("id", options.agentId()));
    Map<String, Object> shared = new LinkedHashMap<>();
    shared.put("mode", options.sharedStateMode());
    if (options.hazelcastServiceDns() != null) {
      shared.put("kubernetesServiceDns", options.hazelcastServiceDns());
    }
    if (options.sharedStatePort() != null) {
      shared.put("port", options.sharedStatePort());
    }
    if (!options.hazelcastMembers().isEmpty()) {
      shared.put("members", options.hazelcastMembers());
    }
    if (!"local".equals(options.sharedStateMode()) && resource.getMetadata().getNamespace() != null) {
      // Where the operator publishes this configuration for running sidecars.
      shared.put("configKey", resource.getMetadata().getNamespace() + "/" + resource.getMetadata().getName());
    }
    out.put("sharedState", shared);
    if (spec.tools().stream().anyMatch(t -> t.approval() == Approval.HUMAN_REQUIRED)) {
      out.put("approvals", ordered("keyFile", options.approvalKeyFile()));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> fields = SERIALIZATION.convertValue(spec, Map.class);
    if (fields.get("upstreams") instanceof java.util.List<?> upstreams) {
      for (Object u : upstreams) {
        @SuppressWarnings("unchecked")
        Map<String, Object> upstream = (Map<String, Object>) u;
        String url = options.upstreamUrls().get(String.valueOf(upstream.get("name")));
        if (url != null) {
          upstream.put("url", url);
        }
      }
    }
    out.putAll(fields);
    return "# Rendered by toolgate-operator from ToolPolicy " + resource.getMetadata().getNamespace() + "/"
        + resource.getMetadata().getName() + ", revision " + options.revision() + ". Do not edit.\n"
        + SERIALIZATION.asYaml(out);
  }
}
