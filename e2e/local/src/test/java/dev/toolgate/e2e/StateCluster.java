package dev.toolgate.e2e;

import dev.toolgate.e2e.support.LocalProcess;
import dev.toolgate.e2e.support.LocalState;
import dev.toolgate.e2e.support.LoopbackPorts;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The cluster's shared state on loopback: two state members (one Hazelcast cluster, each with its
 * API) as real processes, checking tokens by TokenReview against fabric8's mock API server (the one
 * part that cannot run here), which knows two ServiceAccount tokens: the agent's sidecars'
 * (namespace {@value #NAMESPACE}) and one of another namespace.
 */
final class StateCluster implements AutoCloseable {

  static final String NAMESPACE = "ops";
  static final String SIDECAR_TOKEN = "projected-token-of-ops-assistant";
  static final String OTHER_TOKEN = "projected-token-of-another-namespace";

  private final KubernetesMockServer apiServer;
  private final List<LocalProcess> members = new ArrayList<>();
  private final List<Integer> apiPorts = new ArrayList<>();
  final Path caFile;
  final Path sidecarToken;

  private StateCluster(KubernetesMockServer apiServer, Path caFile, Path sidecarToken) {
    this.apiServer = apiServer;
    this.caFile = caFile;
    this.sidecarToken = sidecarToken;
  }

  /** The API server's TokenReview answer for a token: who it belongs to, if anybody. */
  static TokenReview review(String token) {
    String user =
        switch (token) {
          case SIDECAR_TOKEN -> "system:serviceaccount:" + NAMESPACE + ":ops-assistant";
          case OTHER_TOKEN -> "system:serviceaccount:other:ops-assistant";
          default -> null;
        };
    return new TokenReviewBuilder()
        .withNewStatus()
        .withAuthenticated(user != null)
        .withAudiences(user == null ? List.of() : List.of("toolgate-state"))
        .withError(user == null ? "invalid bearer token" : null)
        .withNewUser()
        .withUsername(user)
        .endUser()
        .endStatus()
        .build();
  }

  static StateCluster start(Path root, Path work, Path logs) throws Exception {
    KubernetesSerialization json = new KubernetesSerialization();
    KubernetesMockServer apiServer = new KubernetesMockServer(false);
    apiServer.init(InetAddress.getByName("127.0.0.1"), 0);
    apiServer
        .expect()
        .post()
        .withPath("/apis/authentication.k8s.io/v1/tokenreviews")
        .andReply(
            201,
            request ->
                review(
                    json.unmarshal(request.getBody().readUtf8(), TokenReview.class)
                        .getSpec()
                        .getToken()))
        .always();
    Path dir = Files.createDirectories(work.resolve("state"));
    Path kubeconfig =
        Files.writeString(
            dir.resolve("kubeconfig"),
            """
            apiVersion: v1
            kind: Config
            clusters: [{name: mock, cluster: {server: "http://127.0.0.1:%d"}}]
            users: [{name: state, user: {token: state-service-account-token}}]
            contexts: [{name: mock, context: {cluster: mock, user: state, namespace: toolgate}}]
            current-context: mock
            """
                .formatted(apiServer.getPort()));
    StateCluster cluster =
        new StateCluster(
            apiServer,
            LocalState.certificate(dir, logs),
            Files.writeString(dir.resolve("token"), SIDECAR_TOKEN));
    try {
      List<Integer> memberPorts = List.of(LoopbackPorts.next(), LoopbackPorts.next());
      List<String> addresses = memberPorts.stream().map(p -> "127.0.0.1:" + p).toList();
      for (int i = 0; i < 2; i++) {
        int api = LoopbackPorts.next();
        cluster.apiPorts.add(api);
        cluster.members.add(
            LocalState.member(
                "state-" + i,
                logs,
                root.resolve("state/target/toolgate-state.jar"),
                dir,
                api,
                memberPorts.get(i),
                addresses,
                List.of(
                    "--token-review",
                    "--publisher=system:serviceaccount:toolgate:toolgate-operator"),
                Map.of("KUBECONFIG", kubeconfig.toString())));
      }
      return cluster;
    } catch (IOException | InterruptedException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  /** Member {@code i}'s API. */
  String url(int i) {
    return "https://localhost:" + apiPorts.get(i % apiPorts.size());
  }

  int apiPort(int i) {
    return apiPorts.get(i % apiPorts.size());
  }

  @Override
  public void close() {
    members.forEach(LocalProcess::close);
    apiServer.destroy();
  }
}
