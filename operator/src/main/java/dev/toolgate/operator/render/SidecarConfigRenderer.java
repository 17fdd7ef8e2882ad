package dev.toolgate.operator.render;

import dev.toolgate.operator.crd.ToolPolicy;
import dev.toolgate.policy.config.AdminOptions;
import dev.toolgate.policy.config.AgentIdentity;
import dev.toolgate.policy.config.ApprovalOptions;
import dev.toolgate.policy.config.ListenAddress;
import dev.toolgate.policy.config.RuntimeOptions;
import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.policy.config.SidecarConfig;
import dev.toolgate.policy.model.Approval;
import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.model.QuotaNotify;
import dev.toolgate.policy.validation.PolicyValidator;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Renders a ToolPolicy into the exact file the sidecar reads: the sidecar's configuration record,
 * built from the spec and the deployment's options, written out with every default, so the file
 * says what is in force. Pure: no I/O, no API server; the reconciler and the offline {@code render}
 * command both use it.
 */
public final class SidecarConfigRenderer {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private SidecarConfigRenderer() {}

  /** Reads a ToolPolicy from YAML or JSON. */
  public static ToolPolicy parse(String text) {
    ToolPolicy policy = SERIALIZATION.unmarshal(text, ToolPolicy.class);
    if (policy == null || policy.getSpec() == null) {
      throw new IllegalArgumentException("not a ToolPolicy with a spec");
    }
    return policy;
  }

  /**
   * The sidecar configuration as a record; throws with every violation when the spec is invalid.
   */
  public static SidecarConfig config(ToolPolicy resource, RenderOptions options) {
    // The mounted key is given before validation: a ToolPolicy names a webhook, never a path.
    Policy spec =
        withUpstreamUrls(
            PolicyValidator.requireValid(withNotifySecret(resource.getSpec(), options)), options);
    spec = withMountedCredentials(spec, options);
    boolean needsApproval =
        spec.tools().stream().anyMatch(t -> t.approval() == Approval.HUMAN_REQUIRED);
    return new SidecarConfig(
        options.revision(),
        new ListenAddress(ListenAddress.DEFAULT_HOST, options.listenPort()),
        new AdminOptions(options.adminHost(), options.adminPort(), options.adminTokenFile()),
        new RuntimeOptions(null, null, null, options.warmupCalls()),
        needsApproval ? new ApprovalOptions(options.approvalKeysFile()) : ApprovalOptions.NONE,
        new AgentIdentity(options.agentId()),
        sharedState(resource, options),
        spec);
  }

  /** The sidecar configuration file; throws with every violation when the spec is invalid. */
  public static String render(ToolPolicy resource, RenderOptions options) {
    SidecarConfig config = config(resource, options);
    return "# Rendered by toolgate-operator from ToolPolicy "
        + resource.getMetadata().getNamespace()
        + "/"
        + resource.getMetadata().getName()
        + ", revision "
        + options.revision()
        + ". Do not edit.\n"
        + SERIALIZATION.asYaml(config);
  }

  private static SharedStateOptions sharedState(ToolPolicy resource, RenderOptions options) {
    String namespace = resource.getMetadata().getNamespace();
    // Where the operator publishes this configuration for running sidecars.
    String configKey =
        options.sharedStateMode() != SharedStateOptions.Mode.LOCAL && namespace != null
            ? namespace + "/" + resource.getMetadata().getName()
            : null;
    return new SharedStateOptions(
        options.sharedStateMode(),
        null,
        options.hazelcastMembers(),
        options.hazelcastServiceDns(),
        options.sharedStatePort(),
        null,
        configKey,
        options.sharedStateMode() == SharedStateOptions.Mode.API ? options.stateApi() : null);
  }

  /** An upstream credential named by its Secret key is read where the injector mounts it. */
  private static Policy withMountedCredentials(Policy spec, RenderOptions options) {
    String dir = options.upstreamCredentialsDir();
    if (dir == null || spec.upstreams().stream().allMatch(u -> u.auth() == null)) {
      return spec;
    }
    return spec.withUpstreams(
        spec.upstreams().stream()
            .map(
                u ->
                    u.auth() == null
                        ? u
                        : u.withAuth(
                            u.auth().withFiles(f -> f.startsWith("/") ? f : dir + "/" + f)))
            .toList());
  }

  /** A webhook named without its key gets the key the injector mounts. */
  private static Policy withNotifySecret(Policy spec, RenderOptions options) {
    QuotaNotify notify = spec.quotas().notification();
    if (options.notifySecretFile() == null
        || notify == null
        || notify.webhookUrl() == null
        || notify.secretFile() != null) {
      return spec;
    }
    return spec.withQuotas(
        spec.quotas()
            .withNotification(
                new QuotaNotify(notify.webhookUrl(), options.notifySecretFile(), notify.caFile())));
  }

  private static Policy withUpstreamUrls(Policy spec, RenderOptions options) {
    if (options.upstreamUrls().isEmpty()) {
      return spec;
    }
    return spec.withUpstreams(
        spec.upstreams().stream()
            .map(u -> u.withUrl(options.upstreamUrls().getOrDefault(u.name(), u.url())))
            .toList());
  }
}
