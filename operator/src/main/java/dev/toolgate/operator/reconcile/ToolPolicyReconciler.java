package dev.toolgate.operator.reconcile;

import dev.toolgate.operator.crd.ToolPolicy;
import dev.toolgate.operator.crd.ToolPolicyStatus;
import dev.toolgate.operator.health.OperatorMetrics;
import dev.toolgate.operator.render.RenderOptions;
import dev.toolgate.operator.render.Revisions;
import dev.toolgate.operator.render.SidecarConfigRenderer;
import dev.toolgate.operator.sign.ConfigSigner;
import dev.toolgate.operator.sign.Publication;
import dev.toolgate.policy.validation.PolicyValidator;
import dev.toolgate.policy.validation.Violation;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Applies a ToolPolicy, as a chain of small named steps: read it, validate it, plan its revisions
 * ({@link Revisions}, pure), create the new revision, point the active ConfigMap at the planned
 * revision, prune, report status. An invalid spec changes nothing but the status (and an Event):
 * the previous revision stays active. Idempotent: running it twice changes nothing the second time.
 */
public final class ToolPolicyReconciler {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final KubernetesClient client;
  private final RenderOptions defaults;
  private final Clock clock;
  private final ConfigPublisher publisher;
  private final ConfigSigner signer;
  private final StatusWriter statuses;
  private final EventRecorder events;

  /**
   * The finalizer that keeps a deleted ToolPolicy until its published configuration is withdrawn,
   * even when the operator was down at the deletion.
   */
  public static final String FINALIZER = "toolgate.dev/published-configuration";

  /** The active ConfigMap's annotation: the number of the publication it holds. */
  public static final String ANNOTATION_PUBLICATION = "toolgate.dev/publication";

  /** The active ConfigMap's annotation: the id of the key that signed it. */
  public static final String ANNOTATION_SIGNING_KEY = "toolgate.dev/signing-key";

  public ToolPolicyReconciler(
      KubernetesClient client, RenderOptions defaults, Clock clock, ConfigSigner signer) {
    this(client, defaults, clock, signer, ConfigPublisher.NONE);
  }

  public ToolPolicyReconciler(
      KubernetesClient client,
      RenderOptions defaults,
      Clock clock,
      ConfigSigner signer,
      ConfigPublisher publisher) {
    this.client = client;
    this.defaults = defaults;
    this.clock = clock;
    this.signer = signer;
    this.publisher = publisher;
    this.statuses = new StatusWriter(client, clock);
    this.events = new EventRecorder(client, clock);
  }

  /** Applies the policy; answers what became of it (an {@link OperatorMetrics} result). */
  public String reconcile(String namespace, String name) {
    ToolPolicy policy =
        client.resources(ToolPolicy.class).inNamespace(namespace).withName(name).get();
    if (policy == null) {
      cleanup(namespace, name);
      return OperatorMetrics.DELETED;
    }
    if (policy.getMetadata().getDeletionTimestamp() != null) {
      cleanup(namespace, name);
      Finalizers.remove(client, policy, FINALIZER);
      return OperatorMetrics.DELETED;
    }
    Finalizers.add(client, policy, FINALIZER);
    ToolPolicyStatus status =
        policy.getStatus() == null ? new ToolPolicyStatus() : policy.getStatus();
    long currentlyActive = status.activeRevision == null ? 0 : status.activeRevision;
    List<Violation> violations = PolicyValidator.validate(policy.getSpec());
    String invalid =
        violations.isEmpty()
            ? null
            : violations.stream()
                .map(Violation::toString)
                .reduce((a, b) -> a + "; " + b)
                .orElseThrow();
    Long rollbackTo = rollbackTo(policy);
    // A rollback activates an existing, already validated revision: it must work after a bad
    // change.
    if (invalid != null && rollbackTo == null) {
      reportInvalid(policy, status, "InvalidSpec", invalid);
      return OperatorMetrics.INVALID;
    }
    String hash = specHash(policy);
    List<ConfigMap> revisions =
        client
            .configMaps()
            .inNamespace(namespace)
            .withLabel(Revisions.LABEL_POLICY, name)
            .list()
            .getItems();
    List<Revisions.Existing> existing =
        revisions.stream()
            .filter(cm -> cm.getMetadata().getLabels().containsKey(Revisions.LABEL_REVISION))
            .map(
                cm ->
                    new Revisions.Existing(
                        Long.parseLong(cm.getMetadata().getLabels().get(Revisions.LABEL_REVISION)),
                        cm.getMetadata()
                            .getAnnotations()
                            .getOrDefault(Revisions.ANNOTATION_SPEC_HASH, "")))
            .toList();
    Revisions.Plan plan = Revisions.plan(hash, existing, rollbackTo, currentlyActive);
    if (plan.create() > 0 && invalid == null) {
      createRevision(policy, plan.create(), hash);
    }
    if (plan.error() != null) {
      reportInvalid(policy, status, "RollbackTargetMissing", plan.error());
      return OperatorMetrics.INVALID;
    }
    long newest =
        Math.max(
            plan.create(),
            existing.stream().mapToLong(Revisions.Existing::revision).max().orElse(0));
    activate(policy, plan.active(), newest);
    if (invalid == null) {
      prune(namespace, name, plan.prune());
    }
    reportReady(policy, status, plan);
    if (invalid != null) {
      reportInvalid(policy, status, "InvalidSpec", invalid);
      return OperatorMetrics.INVALID;
    }
    return OperatorMetrics.APPLIED;
  }

  /**
   * A deleted policy: its ConfigMaps carry owner references, so the garbage collector removes them;
   * deleting them here too makes the cleanup independent of the collector's timing, and the
   * publication is withdrawn from the state service, which no owner reference reaches.
   */
  private void cleanup(String namespace, String name) {
    client.configMaps().inNamespace(namespace).withLabel(Revisions.LABEL_POLICY, name).delete();
    client.configMaps().inNamespace(namespace).withName(Revisions.activeName(name)).delete();
    publisher.withdraw(namespace + "/" + name);
  }

  private void createRevision(ToolPolicy policy, long revision, String hash) {
    String config = SidecarConfigRenderer.render(policy, defaults.forRevision(revision));
    client
        .configMaps()
        .inNamespace(policy.getMetadata().getNamespace())
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(Revisions.revisionName(policy.getMetadata().getName(), revision))
                .withLabels(Revisions.labels(policy.getMetadata().getName(), revision))
                .withAnnotations(Map.of(Revisions.ANNOTATION_SPEC_HASH, hash))
                .withOwnerReferences(owner(policy))
                .endMetadata()
                .withImmutable(true)
                .withData(Map.of(Revisions.CONFIG_KEY, config))
                .build())
        .create();
  }

  /**
   * Points the active ConfigMap at {@code revision}, signed as a new publication (a rollback when
   * {@code newest} is newer), and publishes it. An active ConfigMap that already holds this
   * revision, signed with the current key, is kept as it is: a resync signs nothing new.
   */
  private void activate(ToolPolicy policy, long revision, long newest) {
    String namespace = policy.getMetadata().getNamespace();
    String name = policy.getMetadata().getName();
    ConfigMap current =
        client.configMaps().inNamespace(namespace).withName(Revisions.activeName(name)).get();
    String signed;
    Map<String, String> annotations;
    if (signedForRevision(current, revision)) {
      signed = current.getData().get(Revisions.CONFIG_KEY);
      annotations = current.getMetadata().getAnnotations();
    } else {
      ConfigMap source =
          client
              .configMaps()
              .inNamespace(namespace)
              .withName(Revisions.revisionName(name, revision))
              .get();
      Publication publication =
          Publication.next(
              lastPublication(current), clock.millis(), revision, Math.max(revision, newest));
      signed = signer.sign(source.getData().get(Revisions.CONFIG_KEY), publication);
      annotations =
          Map.of(
              ANNOTATION_PUBLICATION,
              Long.toString(publication.sequence()),
              ANNOTATION_SIGNING_KEY,
              signer.keyId());
    }
    ConfigMap active =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName(Revisions.activeName(name))
            .withLabels(
                Map.of(
                    Revisions.LABEL_POLICY,
                    name,
                    "toolgate.dev/active-revision",
                    Long.toString(revision)))
            .withAnnotations(annotations)
            .withOwnerReferences(owner(policy))
            .endMetadata()
            .withData(Map.of(Revisions.CONFIG_KEY, signed))
            .build();
    if (!sameContent(current, active)) {
      client
          .configMaps()
          .inNamespace(namespace)
          .resource(active)
          .createOr(existing -> existing.update());
    }
    publisher.publish(namespace + "/" + name, signed);
  }

  /** Whether the active ConfigMap already is what it should be: no write, no watch event. */
  private static boolean sameContent(ConfigMap current, ConfigMap wanted) {
    return current != null
        && wanted.getData().equals(current.getData())
        && wanted.getMetadata().getLabels().equals(current.getMetadata().getLabels())
        && wanted.getMetadata().getAnnotations().equals(current.getMetadata().getAnnotations())
        && wanted
            .getMetadata()
            .getOwnerReferences()
            .equals(current.getMetadata().getOwnerReferences());
  }

  private boolean signedForRevision(ConfigMap current, long revision) {
    return current != null
        && Long.toString(revision)
            .equals(current.getMetadata().getLabels().get("toolgate.dev/active-revision"))
        && current.getMetadata().getAnnotations() != null
        && signer.keyId().equals(current.getMetadata().getAnnotations().get(ANNOTATION_SIGNING_KEY))
        && current.getData() != null
        && current.getData().containsKey(Revisions.CONFIG_KEY)
        && signer.verifies(current.getData().get(Revisions.CONFIG_KEY));
  }

  private static Long lastPublication(ConfigMap current) {
    if (current == null || current.getMetadata().getAnnotations() == null) {
      return null;
    }
    String value = current.getMetadata().getAnnotations().get(ANNOTATION_PUBLICATION);
    try {
      return value == null ? null : Long.parseLong(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private void prune(String namespace, String name, List<Long> revisions) {
    for (long revision : revisions) {
      client
          .configMaps()
          .inNamespace(namespace)
          .withName(Revisions.revisionName(name, revision))
          .delete();
    }
  }

  private void reportReady(ToolPolicy policy, ToolPolicyStatus status, Revisions.Plan plan) {
    status.observedGeneration = policy.getMetadata().getGeneration();
    if (plan.previous() > 0) {
      status.previousRevision = plan.previous();
    }
    boolean activated = status.activeRevision == null || status.activeRevision != plan.active();
    if (activated) {
      ToolPolicyStatus.Activation activation = new ToolPolicyStatus.Activation();
      activation.revision = plan.active();
      activation.reason = plan.reason();
      activation.at = clock.instant().toString();
      status.history.add(0, activation);
      while (status.history.size() > ToolPolicyStatus.HISTORY_KEPT) {
        status.history.remove(status.history.size() - 1);
      }
    }
    status.activeRevision = plan.active();
    status.activeReason = plan.reason();
    statuses.condition(status, "Valid", "True", "SpecValid", "the spec passed validation");
    statuses.condition(
        status,
        "Ready",
        "True",
        "RevisionActive",
        "revision " + plan.active() + " is active: " + plan.reason());
    statuses.write(policy, status);
    if (activated) {
      events.normal(
          policy, "RevisionActive", "revision " + plan.active() + " is active: " + plan.reason());
    }
  }

  private void reportInvalid(
      ToolPolicy policy, ToolPolicyStatus status, String reason, String message) {
    status.observedGeneration = policy.getMetadata().getGeneration();
    statuses.condition(status, "Valid", "False", reason, message);
    statuses.write(policy, status);
    events.warning(
        policy,
        reason,
        message
            + (status.activeRevision == null
                ? ""
                : "; revision " + status.activeRevision + " stays active"));
  }

  private static Long rollbackTo(ToolPolicy policy) {
    Map<String, String> annotations = policy.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(Revisions.ANNOTATION_ROLLBACK_TO);
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return -1L;
    }
  }

  private static OwnerReference owner(ToolPolicy policy) {
    return new OwnerReferenceBuilder()
        .withApiVersion(policy.getApiVersion())
        .withKind(policy.getKind())
        .withName(policy.getMetadata().getName())
        .withUid(policy.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }

  static String specHash(ToolPolicy policy) {
    return ShortDigest.of(SERIALIZATION.asJson(policy.getSpec()));
  }
}
