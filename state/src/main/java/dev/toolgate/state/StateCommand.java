package dev.toolgate.state;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code toolgate-state}: one member of the state service. */
@Command(
    name = "toolgate-state",
    mixinStandardHelpOptions = true,
    versionProvider = StateCommand.Version.class,
    description = {
      "One member of Toolgate's state service: a Hazelcast member (quota counters, idempotency"
          + " records, published configurations) and an HTTPS API in front of it. Every call"
          + " carries a bearer token; every key is scoped by the namespace the token proves."
    })
final class StateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--tls-cert",
      required = true,
      paramLabel = "FILE",
      description = "The API's certificate (PEM).")
  Path cert;

  @Option(
      names = "--tls-key",
      required = true,
      paramLabel = "FILE",
      description = "Its private key (PEM).")
  Path key;

  @Option(
      names = "--api-host",
      defaultValue = "0.0.0.0",
      paramLabel = "HOST",
      description = "The API's address (default ${DEFAULT-VALUE}).")
  String apiHost;

  @Option(
      names = "--api-port",
      defaultValue = "8443",
      paramLabel = "PORT",
      description = "The API's port (default ${DEFAULT-VALUE}).")
  int apiPort;

  @Option(
      names = "--member-host",
      defaultValue = "${env:POD_IP:-127.0.0.1}",
      paramLabel = "HOST",
      description =
          "The member's address, where the other members reach it (default: $POD_IP, else"
              + " 127.0.0.1). Only other members may reach it: the chart's NetworkPolicy.")
  String memberHost;

  @Option(
      names = "--member-port",
      defaultValue = "5701",
      paramLabel = "PORT",
      description = "The member's port (default ${DEFAULT-VALUE}).")
  int memberPort;

  @Option(
      names = "--members",
      split = ",",
      paramLabel = "HOST:PORT",
      description = "Every member's address, this one's included (the StatefulSet's pods).")
  List<String> members = new ArrayList<>();

  @Option(
      names = "--cluster-name",
      defaultValue = "toolgate-state",
      paramLabel = "NAME",
      description = "The Hazelcast cluster's name (default ${DEFAULT-VALUE}).")
  String clusterName;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Credentials credentials;

  /** How callers prove who they are: one of the two. */
  static final class Credentials {
    @Option(
        names = "--tokens",
        paramLabel = "FILE",
        description =
            "Static tokens, each mapped to a namespace and workload or to the publisher (machines"
                + " without Kubernetes, and tests).")
    Path tokens;

    @Option(
        names = "--token-review",
        description = "Check projected ServiceAccount tokens with the API server (TokenReview).")
    boolean tokenReview;
  }

  @Option(
      names = "--audience",
      defaultValue = "toolgate-state",
      paramLabel = "AUD",
      description =
          "With --token-review: the audience tokens must be for (default ${DEFAULT-VALUE}).")
  String audience;

  @Option(
      names = "--publisher",
      paramLabel = "USER",
      description =
          "With --token-review: a user allowed to publish configurations, e.g."
              + " system:serviceaccount:toolgate:toolgate-operator (repeatable).")
  List<String> publishers = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    if (credentials.tokenReview && publishers.isEmpty()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--token-review needs --publisher: the operator's ServiceAccount");
    }
    Vertx vertx = Vertx.vertx();
    KubernetesClient kubernetes = null;
    Authenticator authenticator;
    try {
      if (credentials.tokens != null) {
        authenticator = StaticTokens.load(credentials.tokens);
      } else {
        kubernetes = new KubernetesClientBuilder().build();
        TokenReviews reviews =
            new TokenReviews(
                vertx, kubernetes, audience, Set.copyOf(publishers), Clock.systemUTC());
        // Before the API listens: the first sidecar's call then finds the client loaded.
        reviews.warmUp().toCompletionStage().toCompletableFuture().join();
        authenticator = reviews;
      }
    } catch (IOException | IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      vertx.close();
      return 2;
    }
    List<String> all =
        members.isEmpty() ? List.of(memberHost + ":" + memberPort) : List.copyOf(members);
    StateService service;
    try {
      service =
          StateService.start(
                  vertx,
                  new StateService.Options(
                      apiHost,
                      apiPort,
                      cert.toString(),
                      key.toString(),
                      memberHost,
                      memberPort,
                      all,
                      clusterName),
                  authenticator,
                  Clock.systemUTC())
              .await(120, TimeUnit.SECONDS);
    } catch (Exception e) {
      err.println("error: the state service failed to start: " + e.getMessage());
      vertx.close();
      return 1;
    }
    KubernetesClient client = kubernetes;
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    service.close(vertx).compose(v -> vertx.close()).await(20, TimeUnit.SECONDS);
                  } catch (Exception e) {
                    err.println("shutdown: " + e);
                    err.flush();
                  }
                  if (client != null) {
                    client.close();
                  }
                },
                "toolgate-state-shutdown"));
    err.println(
        "toolgate state: API on https://"
            + apiHost
            + ":"
            + service.apiPort()
            + ", member on "
            + memberHost
            + ":"
            + service.memberPort());
    err.flush();
    Thread.currentThread().join();
    return 0;
  }

  /** The jar's version, from its manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = StateCommand.class.getPackage().getImplementationVersion();
      return new String[] {"toolgate-state " + (v == null ? "dev" : v)};
    }
  }
}
