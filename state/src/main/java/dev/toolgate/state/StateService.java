package dev.toolgate.state;

import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.sidecar.state.hazelcast.HazelcastStores;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.List;

/** One state member: a Hazelcast member and the state API in front of it, in one process. */
public final class StateService {

  /**
   * Where it listens and what it joins.
   *
   * @param apiHost the API's address ({@code 0.0.0.0} in a pod: sidecars call it)
   * @param apiPort the API's port, 0 for a free one
   * @param certPath the API's certificate (PEM)
   * @param keyPath its private key (PEM)
   * @param memberHost the member's address: the other members reach it there, and the chart's
   *     NetworkPolicy lets only them in
   * @param memberPort the member's port
   * @param members the other members ({@code host:port})
   * @param clusterName the Hazelcast cluster's name
   */
  public record Options(
      String apiHost,
      int apiPort,
      String certPath,
      String keyPath,
      String memberHost,
      int memberPort,
      List<String> members,
      String clusterName) {}

  private final HazelcastStores hazelcast;
  private final StateServer server;

  private StateService(HazelcastStores hazelcast, StateServer server) {
    this.hazelcast = hazelcast;
    this.server = server;
  }

  public static Future<StateService> start(
      Vertx vertx, Options options, Authenticator authenticator, Clock clock) {
    SharedStateOptions member =
        new SharedStateOptions(
            SharedStateOptions.Mode.EMBEDDED,
            options.clusterName(),
            options.members(),
            null,
            options.memberPort(),
            null,
            null);
    return vertx
        .executeBlocking(() -> HazelcastStores.serviceMember(vertx, member, options.memberHost()))
        .compose(
            stores -> {
              StateServer server =
                  new StateServer(
                      stores.stores(),
                      configs(vertx, stores),
                      new CircuitRoutes(vertx, stores.circuitBoard(), clock),
                      authenticator,
                      clock);
              return server
                  .listen(
                      vertx,
                      options.apiHost(),
                      options.apiPort(),
                      options.certPath(),
                      options.keyPath())
                  .map(s -> new StateService(stores, s))
                  .onFailure(e -> stores.shutdown());
            });
  }

  private static StateServer.ConfigStore configs(Vertx vertx, HazelcastStores stores) {
    return new StateServer.ConfigStore() {
      @Override
      public Future<String> get(String key) {
        return vertx.executeBlocking(() -> stores.publishedConfig(key));
      }

      @Override
      public Future<Void> delete(String key) {
        return vertx.executeBlocking(
            () -> {
              stores.withdrawConfig(key);
              return null;
            });
      }

      @Override
      public Future<Void> put(String key, String config) {
        return vertx.executeBlocking(
            () -> {
              stores.publishConfig(key, config);
              return null;
            });
      }
    };
  }

  public int apiPort() {
    return server.port();
  }

  public int memberPort() {
    return hazelcast.memberPort();
  }

  public Future<Void> close(Vertx vertx) {
    return server
        .close()
        .eventually(
            () ->
                vertx.executeBlocking(
                    () -> {
                      hazelcast.shutdown();
                      return null;
                    }));
  }
}
