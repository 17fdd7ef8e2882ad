package dev.toolgate.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.operator.crd.ToolPolicy;
import dev.toolgate.operator.health.OperatorMetrics;
import dev.toolgate.operator.render.RenderOptions;
import dev.toolgate.operator.render.Revisions;
import dev.toolgate.operator.render.SidecarConfigRenderer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.FileInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two operator replicas against the mock API server: one leads, and policies get reconciled. */
@EnableKubernetesMockClient(crud = true)
class OperatorRuntimeTest {

  KubernetesClient client;
  private OperatorRuntime first;
  private OperatorRuntime second;
  private OperatorMetrics metrics = OperatorMetrics.inMemory();

  @AfterEach
  void stop() {
    if (first != null) {
      first.close();
    }
    if (second != null) {
      second.close();
    }
  }

  private OperatorRuntime runtime(String identity) {
    ToolPolicyReconciler reconciler =
        new ToolPolicyReconciler(
            client,
            RenderOptions.injected("https://toolgate-state.toolgate.svc:8443", "CA", null),
            Clock.systemUTC(),
            new dev.toolgate.operator.sign.ConfigSigner(
                dev.toolgate.trust.SigningKey.generate("runtime-test")));
    return new OperatorRuntime(
        client, reconciler, "toolgate", identity, Duration.ofSeconds(3), metrics);
  }

  private ConfigMap active() {
    return client
        .configMaps()
        .inNamespace("ops")
        .withName(Revisions.activeName("deployment-tools"))
        .get();
  }

  @Test
  void oneReplicaLeadsAndPoliciesAreReconciledAsTheyChange() throws Exception {
    try (FileInputStream crd = new FileInputStream("../crds/toolpolicies.toolgate.dev.yaml")) {
      client.apiextensions().v1().customResourceDefinitions().load(crd).create();
    }
    first = runtime("operator-a");
    second = runtime("operator-b");
    first.start();
    second.start();
    await().atMost(Duration.ofSeconds(15)).until(() -> first.leading() || second.leading());
    assertThat(first.leading() && second.leading()).as("never two leaders").isFalse();

    ToolPolicy policy =
        SidecarConfigRenderer.parse(Files.readString(Path.of("../e2e/demo/toolpolicy.yaml")));
    client.resources(ToolPolicy.class).inNamespace("ops").resource(policy).create();
    await().atMost(Duration.ofSeconds(15)).until(() -> active() != null);
    assertThat(active().getData().get(Revisions.CONFIG_KEY)).contains("revision: 1");

    ToolPolicy changed =
        SidecarConfigRenderer.parse(
            Files.readString(Path.of("../e2e/demo/toolpolicy.yaml"))
                .replace("backendMs: 7000", "backendMs: 6000"));
    // The operator writes the status concurrently: like kubectl, retry on a conflict with a fresh
    // read.
    await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              ToolPolicy current =
                  client
                      .resources(ToolPolicy.class)
                      .inNamespace("ops")
                      .withName("deployment-tools")
                      .get();
              current.setSpec(changed.getSpec());
              client.resources(ToolPolicy.class).inNamespace("ops").resource(current).update();
            });

    await()
        .atMost(Duration.ofSeconds(15))
        .until(() -> active().getData().get(Revisions.CONFIG_KEY).contains("revision: 2"));
    assertThat(active().getData().get(Revisions.CONFIG_KEY)).contains("backendMs: 6000");
    OperatorRuntime leader = first.leading() ? first : second;
    assertThat(leader.leading()).isTrue();
  }

  @Test
  void reconciliationsAreCountedByResultAndTheLeaderSaysItLeads() throws Exception {
    createThePolicy();
    first = runtime("operator-a");
    first.start();
    await().atMost(Duration.ofSeconds(15)).until(() -> active() != null);

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(
                        metrics
                            .registry()
                            .get("toolgate_operator_reconcile")
                            .tag("result", OperatorMetrics.APPLIED)
                            .timer()
                            .count())
                    .isPositive());
    assertThat(metrics.registry().get("toolgate_operator_leader").gauge().value()).isEqualTo(1.0);
    assertThat(metrics.registry().get("toolgate_operator_queue_depth").gauge().value())
        .isGreaterThanOrEqualTo(0.0);
  }

  private void createThePolicy() throws Exception {
    try (FileInputStream crd = new FileInputStream("../crds/toolpolicies.toolgate.dev.yaml")) {
      client.apiextensions().v1().customResourceDefinitions().load(crd).create();
    }
    ToolPolicy policy =
        SidecarConfigRenderer.parse(Files.readString(Path.of("../e2e/demo/toolpolicy.yaml")));
    client.resources(ToolPolicy.class).inNamespace("ops").resource(policy).create();
  }

  @Test
  void aReplicaThatLosesItsLeaseStopsReconcilingAndRunsForItAgain() {
    first = runtime("operator-a");
    first.start();
    await().atMost(Duration.ofSeconds(15)).until(first::leading);

    // Another holder takes the lease; like kubectl, retried on a conflict with the leader's
    // renewal.
    await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptions()
        .untilAsserted(
            () ->
                client
                    .leases()
                    .inNamespace("toolgate")
                    .withName(OperatorRuntime.LEASE_NAME)
                    .edit(
                        lease -> {
                          lease.getSpec().setHolderIdentity("intruder");
                          lease.getSpec().setLeaseDurationSeconds(4);
                          lease.getSpec().setRenewTime(java.time.ZonedDateTime.now());
                          return lease;
                        }));

    await().atMost(Duration.ofSeconds(10)).until(() -> !first.leading());
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> {
              assertThat(first.elections()).as("a new elector after the loss").isEqualTo(2);
              assertThat(first.leading()).as("the intruder's lease expired").isTrue();
            });
    assertThat(first.notLive()).isNull();
  }

  @Test
  void anOwnedConfigMapDeletedOrEditedIsRepairedWithoutASpecChange() throws Exception {
    createThePolicy();
    first = runtime("operator-a");
    first.start();
    await().atMost(Duration.ofSeconds(15)).until(() -> active() != null);
    String signed = active().getData().get(Revisions.CONFIG_KEY);

    client
        .configMaps()
        .inNamespace("ops")
        .withName(Revisions.activeName("deployment-tools"))
        .delete();
    await()
        .atMost(Duration.ofSeconds(15))
        .until(() -> active() != null && active().getData().get(Revisions.CONFIG_KEY) != null);

    ConfigMap edited = active();
    edited.getData().put(Revisions.CONFIG_KEY, signed.replace("backendMs: 7000", "backendMs: 1"));
    client.configMaps().inNamespace("ops").resource(edited).update();
    await()
        .atMost(Duration.ofSeconds(15))
        .until(() -> active().getData().get(Revisions.CONFIG_KEY).contains("backendMs: 7000"));
  }

  @Test
  void statusWritesAreNotReconciledAgainButResyncsAndOtherChangesAre() {
    ToolPolicy before = new ToolPolicy();
    before.getMetadata().setResourceVersion("1");
    before.getMetadata().setGeneration(1L);
    ToolPolicy statusOnly = new ToolPolicy();
    statusOnly.getMetadata().setResourceVersion("2");
    statusOnly.getMetadata().setGeneration(1L);
    statusOnly.setStatus(new dev.toolgate.operator.crd.ToolPolicyStatus());
    ToolPolicy deleting = new ToolPolicy();
    deleting.getMetadata().setResourceVersion("3");
    deleting.getMetadata().setGeneration(1L);
    deleting.getMetadata().setDeletionTimestamp("2026-12-07T00:00:00Z");

    assertThat(OperatorRuntime.worthReconciling(before, statusOnly)).isFalse();
    assertThat(OperatorRuntime.worthReconciling(before, before)).as("a resync").isTrue();
    assertThat(OperatorRuntime.worthReconciling(before, deleting)).isTrue();
  }
}
