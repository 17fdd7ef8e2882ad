package dev.toolgate.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.operator.crd.ToolPolicy;
import dev.toolgate.operator.reconcile.OperatorRuntime;
import dev.toolgate.operator.reconcile.ToolPolicyReconciler;
import dev.toolgate.operator.render.RenderOptions;
import dev.toolgate.operator.render.Revisions;
import dev.toolgate.operator.render.SidecarConfigRenderer;
import dev.toolgate.operator.sign.ConfigSigner;
import dev.toolgate.operator.sign.SigningKeySecret;
import dev.toolgate.operator.state.StateTlsSecret;
import dev.toolgate.operator.webhook.CaBundle;
import dev.toolgate.operator.webhook.WebhookCertificates;
import dev.toolgate.operator.webhook.WebhookTlsSecret;
import dev.toolgate.trust.SigningKey;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.FileInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Least privilege, checked against behaviour: the operator runs a full life cycle against the mock
 * API server (leader election, a policy created, changed, rolled back and deleted, the webhook's
 * caBundle repaired), every request it sent is turned into an RBAC (verb, group, resource, name),
 * and each must be granted by the chart's roles bound to the operator's service account.
 */
@EnableKubernetesMockClient(crud = true)
class OperatorRbacTest {

  /** The operator's client. */
  KubernetesClient client;

  KubernetesMockServer server;

  /** The test's own calls (a user's kubectl), told apart by their User-Agent. */
  private KubernetesClient tester;

  private static final String TESTER_AGENT = "rbac-test-user";

  @AfterEach
  void closeTester() {
    if (tester != null) {
      tester.close();
    }
  }

  /** One request as RBAC sees it. */
  record Access(String verb, String group, String resource, String name, String namespace) {}

  @Test
  void grantsEveryCallTheOperatorMakesAndNoMore() throws Exception {
    tester =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder(client.getConfiguration()).withUserAgent(TESTER_AGENT).build())
            .build();
    Rendered chart = Rendered.defaults();
    String webhookConfiguration =
        chart.one(MutatingWebhookConfiguration.class).getMetadata().getName();
    try (FileInputStream crd = new FileInputStream("../crds/toolpolicies.toolgate.dev.yaml")) {
      tester.apiextensions().v1().customResourceDefinitions().load(crd).create();
    }
    tester
        .admissionRegistration()
        .v1()
        .mutatingWebhookConfigurations()
        .resource(chart.one(MutatingWebhookConfiguration.class))
        .create();

    ToolPolicyReconciler reconciler =
        new ToolPolicyReconciler(
            client,
            RenderOptions.injected("https://toolgate-state.toolgate-system.svc:8443", "CA", null),
            Clock.systemUTC(),
            new ConfigSigner(
                SigningKeySecret.loadOrCreate(
                    client,
                    Rendered.NAMESPACE,
                    "toolgate-config-signing",
                    () -> SigningKey.generate("rbac-test"))));
    SigningKeySecret.loadOrCreate(
        client,
        Rendered.NAMESPACE,
        "toolgate-config-signing",
        () -> {
          throw new AssertionError("the second replica reads the first one's key");
        });
    for (int replica = 0; replica < 2; replica++) {
      StateTlsSecret.caOf(
          client,
          Rendered.NAMESPACE,
          "toolgate-state-tls",
          StateTlsSecret.names("toolgate-state", Rendered.NAMESPACE),
          java.time.Instant.now());
    }
    WebhookTlsSecret certificates =
        new WebhookTlsSecret(
            client,
            Rendered.NAMESPACE,
            chart
                    .one(MutatingWebhookConfiguration.class)
                    .getWebhooks()
                    .get(0)
                    .getClientConfig()
                    .getService()
                    .getName()
                + "-certs",
            WebhookCertificates.serviceNames("toolgate-webhook", Rendered.NAMESPACE));
    java.time.Instant now = java.time.Instant.now();
    certificates.ensure(now);
    String bundle = certificates.ensure(now.plus(Duration.ofDays(61))).bundlePem();
    List<Access> accesses = new ArrayList<>();
    try (OperatorRuntime runtime =
        new OperatorRuntime(
            client, reconciler, Rendered.NAMESPACE, "operator-a", Duration.ofSeconds(3))) {
      runtime.start();
      await().atMost(Duration.ofSeconds(15)).until(runtime::leading);
      CaBundle.ensure(client, webhookConfiguration, bundle);

      String yaml = Files.readString(Path.of("../e2e/demo/toolpolicy.yaml"));
      ToolPolicy policy = SidecarConfigRenderer.parse(yaml);
      tester.resources(ToolPolicy.class).inNamespace("ops").resource(policy).create();
      await().atMost(Duration.ofSeconds(15)).until(() -> active("revision: 1"));
      update(SidecarConfigRenderer.parse(yaml.replace("backendMs: 7000", "backendMs: 6000")), null);
      await().atMost(Duration.ofSeconds(15)).until(() -> active("revision: 2"));
      update(
          SidecarConfigRenderer.parse(yaml.replace("backendMs: 7000", "backendMs: 70000")), null);
      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> !tester.v1().events().inNamespace("ops").list().getItems().isEmpty());
      update(null, "1");
      await().atMost(Duration.ofSeconds(15)).until(() -> active("revision: 1"));
      tester.resources(ToolPolicy.class).inNamespace("ops").withName("deployment-tools").delete();
      await()
          .atMost(Duration.ofSeconds(15))
          .until(
              () ->
                  tester
                          .configMaps()
                          .inNamespace("ops")
                          .withName(Revisions.activeName("deployment-tools"))
                          .get()
                      == null);
      accesses.addAll(operatorAccesses());
    }

    Set<String> kinds = new LinkedHashSet<>();
    accesses.forEach(a -> kinds.add(a.verb() + " " + a.resource()));
    assertThat(kinds)
        .as("the scenario exercised the operator's calls")
        .contains(
            "list toolpolicies",
            "watch toolpolicies",
            "patch toolpolicies/status",
            "patch toolpolicies",
            "watch configmaps",
            "get events",
            "create configmaps",
            "delete configmaps",
            "create events",
            "get leases",
            "get mutatingwebhookconfigurations",
            "update mutatingwebhookconfigurations",
            "create secrets",
            "update secrets");
    String account =
        chart.one(Deployment.class).getSpec().getTemplate().getSpec().getServiceAccountName();
    List<PolicyRule> clusterRules = boundClusterRules(chart, account);
    List<PolicyRule> namespaceRules = boundNamespaceRules(chart, account);
    for (Access access : accesses) {
      boolean granted =
          clusterRules.stream().anyMatch(r -> grants(r, access))
              || (Rendered.NAMESPACE.equals(access.namespace())
                  && namespaceRules.stream().anyMatch(r -> grants(r, access)));
      assertThat(granted).as("the chart grants %s", access).isTrue();
    }
    assertThat(clusterRules)
        .as("no wildcard anywhere")
        .allSatisfy(r -> assertThat(r.getVerbs()).doesNotContain("*"))
        .allSatisfy(r -> assertThat(r.getResources()).doesNotContain("*"));
    assertThat(clusterRules.stream().flatMap(r -> r.getResources().stream()))
        .as("the operator reads no Secret")
        .doesNotContain("secrets");
  }

  private boolean active(String revision) {
    var map =
        tester
            .configMaps()
            .inNamespace("ops")
            .withName(Revisions.activeName("deployment-tools"))
            .get();
    return map != null && map.getData().get(Revisions.CONFIG_KEY).contains(revision);
  }

  private void update(ToolPolicy spec, String rollbackTo) {
    await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              ToolPolicy current =
                  tester
                      .resources(ToolPolicy.class)
                      .inNamespace("ops")
                      .withName("deployment-tools")
                      .get();
              if (spec != null) {
                current.setSpec(spec.getSpec());
              }
              if (rollbackTo != null) {
                current
                    .getMetadata()
                    .getAnnotations()
                    .put(Revisions.ANNOTATION_ROLLBACK_TO, rollbackTo);
              }
              tester.resources(ToolPolicy.class).inNamespace("ops").resource(current).update();
            });
  }

  /** The requests the operator sent (not the test's own). */
  private List<Access> operatorAccesses() throws InterruptedException {
    List<Access> accesses = new ArrayList<>();
    RecordedRequest request;
    while ((request = server.takeRequest(10, TimeUnit.MILLISECONDS)) != null) {
      if (!TESTER_AGENT.equals(request.getHeader("User-Agent"))) {
        accesses.add(access(request.getMethod(), request.getPath()));
      }
    }
    return accesses;
  }

  static Access access(String method, String pathAndQuery) {
    String path = pathAndQuery.split("\\?")[0];
    String query =
        pathAndQuery.contains("?") ? pathAndQuery.substring(pathAndQuery.indexOf('?') + 1) : "";
    List<String> parts = new ArrayList<>(List.of(path.substring(1).split("/")));
    String group;
    if (parts.get(0).equals("api")) {
      group = "";
      parts = parts.subList(2, parts.size());
    } else {
      group = parts.get(1);
      parts = parts.subList(3, parts.size());
    }
    String namespace = null;
    if (parts.size() >= 2 && parts.get(0).equals("namespaces") && parts.size() > 2) {
      namespace = parts.get(1);
      parts = parts.subList(2, parts.size());
    }
    String resource = parts.get(0);
    String name = parts.size() > 1 ? parts.get(1) : null;
    if (parts.size() > 2) {
      resource = resource + "/" + parts.get(2);
    }
    String verb =
        switch (method) {
          case "GET" -> query.contains("watch=true") ? "watch" : name == null ? "list" : "get";
          case "POST" -> "create";
          case "PUT" -> "update";
          case "PATCH" -> "patch";
          case "DELETE" -> name == null ? "deletecollection" : "delete";
          default -> throw new AssertionError("unexpected method " + method);
        };
    return new Access(verb, group, resource, name, namespace);
  }

  private static boolean grants(PolicyRule rule, Access access) {
    return rule.getApiGroups().contains(access.group())
        && rule.getResources().contains(access.resource())
        && rule.getVerbs().contains(access.verb())
        && (rule.getResourceNames() == null
            || rule.getResourceNames().isEmpty()
            || rule.getResourceNames().contains(access.name()));
  }

  private static List<PolicyRule> boundClusterRules(Rendered chart, String account) {
    List<PolicyRule> rules = new ArrayList<>();
    for (ClusterRoleBinding binding : chart.all(ClusterRoleBinding.class)) {
      if (binding.getSubjects().stream().anyMatch(s -> s.getName().equals(account))) {
        rules.addAll(chart.named(ClusterRole.class, binding.getRoleRef().getName()).getRules());
      }
    }
    return rules;
  }

  private static List<PolicyRule> boundNamespaceRules(Rendered chart, String account) {
    List<PolicyRule> rules = new ArrayList<>();
    for (RoleBinding binding : chart.all(RoleBinding.class)) {
      if (binding.getSubjects().stream().anyMatch(s -> s.getName().equals(account))) {
        rules.addAll(chart.named(Role.class, binding.getRoleRef().getName()).getRules());
      }
    }
    return rules;
  }

  @Test
  void readsRequestsAsRbacDoes() {
    assertThat(
            access("GET", "/apis/toolgate.dev/v1alpha1/toolpolicies?watch=true&resourceVersion=1"))
        .isEqualTo(new Access("watch", "toolgate.dev", "toolpolicies", null, null));
    assertThat(access("PUT", "/apis/toolgate.dev/v1alpha1/namespaces/ops/toolpolicies/p/status"))
        .isEqualTo(new Access("update", "toolgate.dev", "toolpolicies/status", "p", "ops"));
    assertThat(access("DELETE", "/api/v1/namespaces/ops/configmaps?labelSelector=a"))
        .isEqualTo(new Access("deletecollection", "", "configmaps", null, "ops"));
    assertThat(
            access(
                "GET",
                "/apis/coordination.k8s.io/v1/namespaces/toolgate-system/leases/toolgate-operator"))
        .isEqualTo(
            new Access(
                "get", "coordination.k8s.io", "leases", "toolgate-operator", "toolgate-system"));
    assertThat(access("GET", "/api/v1/namespaces/ops/configmaps"))
        .extracting(Access::verb)
        .isEqualTo("list");
  }
}
