package dev.toolgate.operator.inject;

import dev.toolgate.operator.render.Revisions;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.JsonDiff;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decides whether a pod gets the sidecar (with the reasons, as Linkerd's injector does) and
 * computes the JSON patch that adds it. Pure: a pod in, a decision and a patch out; the admission
 * webhook only wraps it. Idempotent: an injected pod is marked and never injected twice.
 */
public final class SidecarInjector {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final InjectionOptions options;

  public SidecarInjector(InjectionOptions options) {
    this.options = options;
  }

  /** Whether to inject, and why (or why not). */
  /** Whether to inject, why, and what of the pod's overrides was not used (admission warnings). */
  public record Decision(boolean inject, List<String> reasons, List<String> warnings) {
    public Decision(boolean inject, List<String> reasons) {
      this(inject, reasons, List.of());
    }
  }

  /** The sidecar's logger (slf4j-simple) reads its level from this system property. */
  static final String LOG_LEVEL_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";

  public Decision decide(Pod pod, String namespace) {
    Map<String, String> annotations =
        pod.getMetadata() == null || pod.getMetadata().getAnnotations() == null
            ? Map.of()
            : pod.getMetadata().getAnnotations();
    if (options.operatorNamespace().equals(namespace)) {
      return new Decision(
          false, List.of("never inject into the operator's namespace " + namespace));
    }
    if (!"true".equals(annotations.get(InjectionOptions.ANNOTATION_INJECT))) {
      return new Decision(
          false, List.of("no " + InjectionOptions.ANNOTATION_INJECT + ": \"true\" annotation"));
    }
    if (annotations.containsKey(InjectionOptions.ANNOTATION_INJECTED)) {
      return new Decision(false, List.of("already injected"));
    }
    return new Decision(
        true,
        List.of(
            "annotated " + InjectionOptions.ANNOTATION_INJECT + ": \"true\"",
            "policy " + policy(annotations)),
        PodOverrides.of(annotations, options).warnings());
  }

  /** The JSON patch (RFC 6902) that injects the sidecar, as text. */
  public String patch(Pod pod) {
    return patch(pod, pod.getMetadata().getNamespace());
  }

  /** The JSON patch that injects the sidecar into a pod of {@code namespace}. */
  public String patch(Pod pod, String namespace) {
    Pod injected = inject(pod, namespace);
    return SERIALIZATION.asJson(
        JsonDiff.asJson(
            SERIALIZATION.convertValue(pod, tools.jackson.databind.JsonNode.class),
            SERIALIZATION.convertValue(injected, tools.jackson.databind.JsonNode.class)));
  }

  /** The pod with the sidecar. */
  public Pod inject(Pod pod, String namespace) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    String policy = policy(annotations == null ? Map.of() : annotations);
    PodOverrides overrides = PodOverrides.of(annotations == null ? Map.of() : annotations, options);
    Container sidecar = sidecar(Workload.of(pod, namespace), overrides);
    PodBuilder builder =
        new PodBuilder(pod)
            .editMetadata()
            .addToAnnotations(InjectionOptions.ANNOTATION_INJECTED, "policy=" + policy)
            .addToLabels(InjectionOptions.LABEL_SIDECAR, "true")
            .endMetadata()
            .editSpec()
            .addToVolumes(
                configVolume(policy),
                approvalVolume(),
                optionalSecret("toolgate-admin", InjectionOptions.ADMIN_SECRET),
                optionalSecret("toolgate-notify", InjectionOptions.NOTIFY_SECRET),
                optionalSecret("toolgate-upstreams", InjectionOptions.UPSTREAMS_SECRET),
                stateTokenVolume(),
                tmpVolume())
            .endSpec();
    List<Container> agents = new ArrayList<>();
    for (Container c : pod.getSpec().getContainers()) {
      agents.add(
          new ContainerBuilder(c)
              .addToEnv(
                  new EnvVar(
                      InjectionOptions.ENV_MCP_BASE,
                      "http://127.0.0.1:" + options.mcpPort() + "/mcp",
                      null))
              .build());
    }
    builder.editSpec().withContainers(agents).endSpec();
    for (String secret : options.imagePullSecrets()) {
      boolean present =
          pod.getSpec().getImagePullSecrets() != null
              && pod.getSpec().getImagePullSecrets().stream()
                  .anyMatch(r -> secret.equals(r.getName()));
      if (!present) {
        builder.editSpec().addNewImagePullSecret(secret).endSpec();
      }
    }
    if (options.nativeSidecars()) {
      builder
          .editSpec()
          .addToInitContainers(0, new ContainerBuilder(sidecar).withRestartPolicy("Always").build())
          .endSpec();
    } else {
      builder.editSpec().addToContainers(0, sidecar).endSpec();
    }
    return builder.build();
  }

  private Container sidecar(String workload, PodOverrides overrides) {
    List<String> args =
        new ArrayList<>(
            List.of("--config", InjectionOptions.CONFIG_DIR + "/" + Revisions.CONFIG_KEY));
    if (overrides.warmupCalls() != null) {
      args.addAll(List.of("--warmup-calls", Integer.toString(overrides.warmupCalls())));
    }
    ContainerBuilder sidecar =
        new ContainerBuilder()
            .withName(InjectionOptions.CONTAINER)
            .withImage(options.image())
            .withArgs(args)
            .addNewPort()
            .withName("mcp")
            .withContainerPort(options.mcpPort())
            .endPort()
            .addNewPort()
            .withName("admin")
            .withContainerPort(options.adminPort())
            .endPort()
            .withNewStartupProbe()
            .withNewHttpGet()
            .withPath("/readyz")
            .withNewPort("admin")
            .endHttpGet()
            .withPeriodSeconds(1)
            .withFailureThreshold(60)
            .endStartupProbe()
            .withNewReadinessProbe()
            .withNewHttpGet()
            .withPath("/readyz")
            .withNewPort("admin")
            .endHttpGet()
            .endReadinessProbe()
            .withNewResources()
            .addToRequests("cpu", new Quantity(overrides.cpuRequest()))
            .addToRequests("memory", new Quantity(overrides.memoryRequest()))
            .addToLimits("memory", new Quantity(overrides.memoryLimit()))
            .endResources()
            // Pod Security Standards' "restricted" profile asks each container for all of these: a
            // sidecar short of one would get the agent's pod refused in a namespace that enforces
            // it.
            .withNewSecurityContext()
            .withRunAsNonRoot(true)
            .withReadOnlyRootFilesystem(true)
            .withAllowPrivilegeEscalation(false)
            .withNewCapabilities()
            .withDrop("ALL")
            .endCapabilities()
            .withNewSeccompProfile()
            .withType("RuntimeDefault")
            .endSeccompProfile()
            .endSecurityContext()
            .addNewVolumeMount()
            .withName("toolgate-config")
            .withMountPath(InjectionOptions.CONFIG_DIR)
            .withReadOnly(true)
            .endVolumeMount()
            .addNewVolumeMount()
            .withName("toolgate-approval")
            .withMountPath(InjectionOptions.APPROVAL_DIR)
            .withReadOnly(true)
            .endVolumeMount()
            // The admin token and the notification key: in this container only, so the agent,
            // which shares the network and reaches the admin port, cannot present them.
            .addNewVolumeMount()
            .withName("toolgate-admin")
            .withMountPath(InjectionOptions.ADMIN_DIR)
            .withReadOnly(true)
            .endVolumeMount()
            .addNewVolumeMount()
            .withName("toolgate-notify")
            .withMountPath(InjectionOptions.NOTIFY_DIR)
            .withReadOnly(true)
            .endVolumeMount()
            // The credentials upstreams require: the agent never holds them.
            .addNewVolumeMount()
            .withName("toolgate-upstreams")
            .withMountPath(InjectionOptions.UPSTREAMS_DIR)
            .withReadOnly(true)
            .endVolumeMount()
            // The sidecar's credential for the state service: in this container only, so the agent,
            // which shares the network but not the files, cannot present it.
            .addNewVolumeMount()
            .withName("toolgate-state-token")
            .withMountPath(InjectionOptions.STATE_TOKEN_DIR)
            .withReadOnly(true)
            .endVolumeMount()
            // The root file system is read-only; the JVM and Vert.x's file cache need a scratch
            // directory.
            .addNewVolumeMount()
            .withName("toolgate-tmp")
            .withMountPath("/tmp")
            .endVolumeMount();
    // Replaces the image's JDK_JAVA_OPTIONS: the client-mode archive, then the chart's options.
    String javaOptions = "-XX:SharedArchiveFile=" + InjectionOptions.CLIENT_ARCHIVE;
    if (!options.javaOpts().isEmpty()) {
      javaOptions += " " + options.javaOpts();
    }
    if (overrides.logLevel() != null) {
      javaOptions += " -D" + LOG_LEVEL_PROPERTY + "=" + overrides.logLevel();
    }
    sidecar.addToEnv(new EnvVar(InjectionOptions.ENV_JAVA_OPTIONS, javaOptions, null));
    // The agent id per-agent quotas count under: the pod's workload, fixed at admission.
    sidecar.addToEnv(new EnvVar(InjectionOptions.ENV_AGENT_ID, workload, null));
    if (options.configKeys() != null) {
      // In the sidecar container only, and fixed at admission: nothing the agent reaches can
      // change which keys its sidecar trusts.
      sidecar.addToEnv(new EnvVar(InjectionOptions.ENV_CONFIG_KEYS, options.configKeys(), null));
    }
    return sidecar.build();
  }

  private static Volume configVolume(String policy) {
    return new VolumeBuilder()
        .withName("toolgate-config")
        .withNewConfigMap()
        .withName(Revisions.activeName(policy))
        .endConfigMap()
        .build();
  }

  private Volume approvalVolume() {
    return new VolumeBuilder()
        .withName("toolgate-approval")
        .withNewSecret()
        .withSecretName(options.approvalSecret())
        .withOptional(false)
        .endSecret()
        .build();
  }

  /** A Secret of the pod's namespace that may not exist yet: the pod starts without it. */
  private static Volume optionalSecret(String volume, String secret) {
    return new VolumeBuilder()
        .withName(volume)
        .withNewSecret()
        .withSecretName(secret)
        .withOptional(true)
        .endSecret()
        .build();
  }

  /** A projected ServiceAccount token for the state service's audience, rotated by the kubelet. */
  private static Volume stateTokenVolume() {
    return new VolumeBuilder()
        .withName("toolgate-state-token")
        .withNewProjected()
        .addNewSource()
        .withNewServiceAccountToken()
        .withAudience(InjectionOptions.STATE_AUDIENCE)
        .withExpirationSeconds(InjectionOptions.STATE_TOKEN_SECONDS)
        .withPath("token")
        .endServiceAccountToken()
        .endSource()
        .endProjected()
        .build();
  }

  private static Volume tmpVolume() {
    return new VolumeBuilder()
        .withName("toolgate-tmp")
        .withNewEmptyDir()
        .withSizeLimit(new Quantity("16Mi"))
        .endEmptyDir()
        .build();
  }

  private static String policy(Map<String, String> annotations) {
    return annotations.getOrDefault(
        InjectionOptions.ANNOTATION_POLICY, InjectionOptions.DEFAULT_POLICY);
  }
}
