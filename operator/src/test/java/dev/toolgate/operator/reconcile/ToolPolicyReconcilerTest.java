package dev.toolgate.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.operator.crd.ToolPolicy;
import dev.toolgate.operator.crd.ToolPolicyStatus;
import dev.toolgate.operator.render.RenderOptions;
import dev.toolgate.operator.render.Revisions;
import dev.toolgate.operator.render.SidecarConfigRenderer;
import dev.toolgate.operator.sign.ConfigSigner;
import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.trust.SignedConfig;
import dev.toolgate.trust.SigningKey;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.FileInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reconciler against fabric8's mock API server in CRUD mode, with the real CRD loaded. */
@EnableKubernetesMockClient(crud = true)
class ToolPolicyReconcilerTest {

  static final String NS = "ops";
  static final String NAME = "deployment-tools";

  KubernetesClient client;
  KubernetesMockServer server;
  private ToolPolicyReconciler reconciler;
  private final java.util.Map<String, String> published =
      new java.util.concurrent.ConcurrentHashMap<>();

  @BeforeEach
  void setUp() throws Exception {
    try (FileInputStream crd = new FileInputStream("../crds/toolpolicies.toolgate.dev.yaml")) {
      client.apiextensions().v1().customResourceDefinitions().load(crd).create();
    }
    reconciler =
        new ToolPolicyReconciler(
            client,
            new RenderOptions(
                0,
                "ops-assistant",
                SharedStateOptions.Mode.CLIENT,
                "toolgate-hazelcast.toolgate.svc",
                List.of(),
                null,
                null,
                RenderOptions.INJECTED_ADMIN_HOST,
                null,
                null,
                null,
                null,
                null),
            Clock.systemUTC(),
            new ConfigSigner(KEY),
            new ConfigPublisher() {
              @Override
              public void publish(String key, String config) {
                published.put(key, config);
              }

              @Override
              public void withdraw(String key) {
                published.remove(key);
              }
            });
  }

  private static final SigningKey KEY = SigningKey.generate("operator-test");

  /** The active configuration, its signature checked as a sidecar checks it. */
  private SignedConfig activeSigned() throws Exception {
    return KEY.publicKeys()
        .verify(active().getData().get(Revisions.CONFIG_KEY).getBytes(StandardCharsets.UTF_8));
  }

  private ToolPolicy apply(String backendMs) throws Exception {
    String yaml =
        Files.readString(Path.of("../e2e/demo/toolpolicy.yaml"))
            .replace("backendMs: 7000", "backendMs: " + backendMs);
    ToolPolicy policy = SidecarConfigRenderer.parse(yaml);
    ToolPolicy existing = client.resources(ToolPolicy.class).inNamespace(NS).withName(NAME).get();
    if (existing == null) {
      return client.resources(ToolPolicy.class).inNamespace(NS).resource(policy).create();
    }
    existing.setSpec(policy.getSpec());
    return client.resources(ToolPolicy.class).inNamespace(NS).resource(existing).update();
  }

  private ToolPolicy current() {
    return client.resources(ToolPolicy.class).inNamespace(NS).withName(NAME).get();
  }

  /** What an operator does: annotates the policy with the revision to go back to. */
  private void askRollbackTo(String revision) {
    ToolPolicy p = current();
    p.getMetadata().setAnnotations(java.util.Map.of(Revisions.ANNOTATION_ROLLBACK_TO, revision));
    client.resources(ToolPolicy.class).inNamespace(NS).resource(p).update();
  }

  private List<ConfigMap> revisions() {
    return client
        .configMaps()
        .inNamespace(NS)
        .withLabel(Revisions.LABEL_REVISION)
        .list()
        .getItems();
  }

  private ConfigMap active() {
    return client.configMaps().inNamespace(NS).withName(Revisions.activeName(NAME)).get();
  }

  private static ToolPolicyStatus.Condition condition(ToolPolicy p, String type) {
    return p.getStatus().conditions.stream()
        .filter(c -> type.equals(c.type))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void createsARevisionAndTheActiveConfigMapAndReportsReady() throws Exception {
    apply("7000");

    reconciler.reconcile(NS, NAME);

    assertThat(revisions())
        .singleElement()
        .satisfies(
            cm -> {
              assertThat(cm.getMetadata().getName()).isEqualTo("deployment-tools-r1");
              assertThat(cm.getImmutable()).isTrue();
              assertThat(cm.getMetadata().getOwnerReferences())
                  .singleElement()
                  .satisfies(o -> assertThat(o.getKind()).isEqualTo("ToolPolicy"));
            });
    assertThat(active().getData().get(Revisions.CONFIG_KEY))
        .contains("revision: 1")
        .contains("backendMs: 7000");
    ToolPolicy p = current();
    assertThat(p.getStatus().activeRevision).isEqualTo(1);
    assertThat(condition(p, "Ready").status).isEqualTo("True");
    assertThat(condition(p, "Valid").status).isEqualTo("True");
    assertThat(published.get("ops/deployment-tools"))
        .isEqualTo(active().getData().get(Revisions.CONFIG_KEY))
        .contains("configKey: \"ops/deployment-tools\"");
    assertThat(activeSigned().keyId()).isEqualTo("operator-test");
    assertThat(activeSigned().rollback()).isFalse();
  }

  @Test
  void aResyncKeepsThePublicationAndANewRevisionIsALaterOne() throws Exception {
    apply("7000");
    reconciler.reconcile(NS, NAME);
    String first = active().getData().get(Revisions.CONFIG_KEY);
    long firstSequence = activeSigned().sequence();

    reconciler.reconcile(NS, NAME);
    assertThat(active().getData().get(Revisions.CONFIG_KEY))
        .as("nothing re-signed on a resync")
        .isEqualTo(first);

    apply("6000");
    reconciler.reconcile(NS, NAME);
    assertThat(activeSigned().sequence()).isGreaterThan(firstSequence);
    assertThat(
            active()
                .getMetadata()
                .getAnnotations()
                .get(ToolPolicyReconciler.ANNOTATION_PUBLICATION))
        .isEqualTo(Long.toString(activeSigned().sequence()));
  }

  @Test
  void aChangedSpecMakesANewRevisionAndAnUnchangedOneNone() throws Exception {
    apply("7000");
    reconciler.reconcile(NS, NAME);
    reconciler.reconcile(NS, NAME);
    assertThat(revisions()).hasSize(1);

    apply("6000");
    reconciler.reconcile(NS, NAME);

    assertThat(revisions()).hasSize(2);
    assertThat(active().getData().get(Revisions.CONFIG_KEY))
        .contains("revision: 2")
        .contains("backendMs: 6000");
    assertThat(current().getStatus().previousRevision).isEqualTo(1);
  }

  @Test
  void anInvalidSpecKeepsThePreviousRevisionActiveAndSaysWhy() throws Exception {
    apply("7000");
    reconciler.reconcile(NS, NAME);

    apply("60000");
    reconciler.reconcile(NS, NAME);

    assertThat(revisions()).hasSize(1);
    assertThat(active().getData().get(Revisions.CONFIG_KEY)).contains("backendMs: 7000");
    ToolPolicy p = current();
    assertThat(condition(p, "Valid").status).isEqualTo("False");
    assertThat(condition(p, "Valid").message)
        .contains("budget.backendMs (60000) must be < budget.transportMs (10000)");
    assertThat(p.getStatus().activeRevision).isEqualTo(1);
    assertThat(client.v1().events().inNamespace(NS).list().getItems())
        .anySatisfy(e -> assertThat(e.getMessage()).contains("revision 1 stays active"));
  }

  @Test
  void rollsBackToAnEarlierRevisionByAnnotation() throws Exception {
    apply("7000");
    reconciler.reconcile(NS, NAME);
    apply("6000");
    reconciler.reconcile(NS, NAME);

    askRollbackTo("1");
    reconciler.reconcile(NS, NAME);

    assertThat(active().getData().get(Revisions.CONFIG_KEY))
        .contains("revision: 1")
        .contains("backendMs: 7000");
    assertThat(current().getStatus().activeRevision).isEqualTo(1);
    assertThat(current().getStatus().activeReason).contains("rolled back to revision 1");
    assertThat(current().getStatus().history)
        .extracting(a -> a.revision)
        .containsExactly(1L, 2L, 1L);
    assertThat(published.get("ops/deployment-tools")).contains("revision: 1");
    assertThat(revisions()).hasSize(2);
    assertThat(activeSigned().rollback()).as("signed as a rollback").isTrue();
  }

  @Test
  void rollsBackEvenWhileTheCurrentSpecIsInvalid() throws Exception {
    apply("7000");
    reconciler.reconcile(NS, NAME);
    apply("6000");
    reconciler.reconcile(NS, NAME);
    apply("60000");
    reconciler.reconcile(NS, NAME);

    askRollbackTo("1");
    reconciler.reconcile(NS, NAME);

    assertThat(active().getData().get(Revisions.CONFIG_KEY))
        .contains("revision: 1")
        .contains("backendMs: 7000");
    assertThat(current().getStatus().activeRevision).isEqualTo(1);
    assertThat(condition(current(), "Valid").status)
        .as("the spec itself is still invalid")
        .isEqualTo("False");
    assertThat(condition(current(), "Ready").status).isEqualTo("True");
    assertThat(revisions()).as("no revision rendered from the invalid spec").hasSize(2);
  }

  @Test
  void refusesARollbackToARevisionThatDoesNotExist() throws Exception {
    apply("7000");
    reconciler.reconcile(NS, NAME);
    askRollbackTo("9");

    reconciler.reconcile(NS, NAME);

    assertThat(condition(current(), "Valid").message)
        .contains("rollback to revision 9 asked, but it does not exist");
    assertThat(current().getStatus().activeRevision).isEqualTo(1);
  }

  @Test
  void cleansUpWhatItCreatedWhenThePolicyIsDeleted() throws Exception {
    apply("7000");
    reconciler.reconcile(NS, NAME);
    apply("6000");
    reconciler.reconcile(NS, NAME);

    client.resources(ToolPolicy.class).inNamespace(NS).withName(NAME).delete();
    reconciler.reconcile(NS, NAME);

    assertThat(revisions()).isEmpty();
    assertThat(active()).isNull();
  }

  @Test
  void keepsTheLastTenRevisions() throws Exception {
    for (int i = 0; i < 12; i++) {
      apply(Integer.toString(5000 + i));
      reconciler.reconcile(NS, NAME);
    }

    assertThat(revisions()).hasSize(Revisions.KEPT);
    assertThat(revisions())
        .noneMatch(cm -> cm.getMetadata().getName().equals("deployment-tools-r1"));
    assertThat(current().getStatus().activeRevision).isEqualTo(12);
  }

  /** The requests the reconciler sent since the last call, as "METHOD path content-type". */
  private List<String> requests() throws InterruptedException {
    List<String> out = new ArrayList<>();
    RecordedRequest request;
    while ((request = server.takeRequest(10, java.util.concurrent.TimeUnit.MILLISECONDS)) != null) {
      out.add(
          request.getMethod()
              + " "
              + request.getPath()
              + " "
              + java.util.Objects.toString(request.getHeader("Content-Type"), ""));
    }
    return out;
  }

  @Test
  void theStatusIsAPatchOfTheStatusSubresourceAndEachConditionNamesItsGeneration()
      throws Exception {
    apply("7000");
    requests();

    reconciler.reconcile(NS, NAME);

    List<String> sent = requests();
    assertThat(sent)
        .anyMatch(
            r ->
                r.startsWith(
                        "PATCH /apis/toolgate.dev/v1alpha1/namespaces/ops/toolpolicies/"
                            + NAME
                            + "/status ")
                    && r.contains("json-patch"))
        .noneMatch(r -> r.startsWith("PUT /apis/toolgate.dev/"));
    ToolPolicy p = current();
    assertThat(p.getStatus().conditions)
        .allSatisfy(
            c -> assertThat(c.observedGeneration).isEqualTo(p.getMetadata().getGeneration()));
  }

  @Test
  void aStatusComputedFromAStaleVersionIsRefusedThenWrittenOnTheCurrentOne() throws Exception {
    apply("7000");
    reconciler.reconcile(NS, NAME);
    ToolPolicy stale = current();
    askRollbackTo("1");
    requests();
    ToolPolicyStatus status = stale.getStatus();
    status.activeReason = "written after a conflict";

    new StatusWriter(client, Clock.systemUTC()).write(stale, status);

    assertThat(requests())
        .filteredOn(r -> r.startsWith("PATCH") && r.contains("/status "))
        .as("refused once (409), then written on the version read again")
        .hasSize(2);
    assertThat(current().getStatus().activeReason).isEqualTo("written after a conflict");
  }

  @Test
  void aDeletedPolicyStaysUntilItsPublicationIsWithdrawn() throws Exception {
    apply("7000");
    reconciler.reconcile(NS, NAME);
    assertThat(current().getMetadata().getFinalizers())
        .containsExactly(ToolPolicyReconciler.FINALIZER);
    assertThat(published).containsKey(NS + "/" + NAME);

    client.resources(ToolPolicy.class).inNamespace(NS).withName(NAME).delete();
    ToolPolicy deleting = current();
    assertThat(deleting).as("held by the finalizer").isNotNull();
    assertThat(deleting.getMetadata().getDeletionTimestamp()).isNotNull();
    reconciler.reconcile(NS, NAME);

    assertThat(published).doesNotContainKey(NS + "/" + NAME);
    assertThat(active()).isNull();
    assertThat(current()).as("gone once the finalizer is removed").isNull();
  }

  @Test
  void anEditedOrDeletedActiveConfigMapIsRepairedByTheNextReconcile() throws Exception {
    apply("7000");
    reconciler.reconcile(NS, NAME);
    ConfigMap tampered = active();
    tampered
        .getData()
        .put(
            Revisions.CONFIG_KEY,
            tampered
                .getData()
                .get(Revisions.CONFIG_KEY)
                .replace("backendMs: 7000", "backendMs: 9"));
    client.configMaps().inNamespace(NS).resource(tampered).update();

    reconciler.reconcile(NS, NAME);
    assertThat(activeSigned()).as("signed again, intact").isNotNull();
    assertThat(active().getData().get(Revisions.CONFIG_KEY)).contains("backendMs: 7000");

    client.configMaps().inNamespace(NS).withName(Revisions.activeName(NAME)).delete();
    reconciler.reconcile(NS, NAME);
    assertThat(activeSigned()).isNotNull();
  }

  @Test
  void eventsSayWhatHappenedAndCountWhatRepeats() throws Exception {
    apply("7000");
    reconciler.reconcile(NS, NAME);
    apply("60000");
    reconciler.reconcile(NS, NAME);
    reconciler.reconcile(NS, NAME);

    List<io.fabric8.kubernetes.api.model.Event> events =
        client.v1().events().inNamespace(NS).list().getItems();
    assertThat(events)
        .filteredOn(e -> e.getType().equals("Normal"))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getReason()).isEqualTo("RevisionActive");
              assertThat(e.getCount()).isEqualTo(1);
              assertThat(e.getInvolvedObject().getName()).isEqualTo(NAME);
            });
    assertThat(events)
        .filteredOn(e -> e.getType().equals("Warning"))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getReason()).isEqualTo("InvalidSpec");
              assertThat(e.getCount()).as("the same refusal twice is one Event").isEqualTo(2);
              assertThat(e.getFirstTimestamp()).isNotNull();
              assertThat(e.getLastTimestamp()).isNotNull();
              assertThat(e.getSource().getComponent()).isEqualTo("toolgate-operator");
            });
  }
}
