package dev.toolgate.sidecar.state.api;

import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.sidecar.state.ResilientQuotaStore;
import dev.toolgate.sidecar.state.Stores;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sidecar's stores in {@code api} mode: quotas and idempotency records on the state service,
 * the operator's publication polled from it. No Hazelcast: this sidecar opens no port to the
 * cluster and reaches nothing a token does not authorize. Breaker news goes through the service too
 * ({@link ApiCircuits}).
 */
public final class ApiStores {

  private static final Logger LOG = LoggerFactory.getLogger(ApiStores.class);

  private final Vertx vertx;
  private final StateApiClient client;
  private final Stores stores;
  private final Consumer<Boolean> up;
  private final ApiCircuits circuits;
  private long poll = -1;
  private String etag;

  private ApiStores(
      Vertx vertx, StateApiClient client, SharedStateOptions options, Consumer<Boolean> up) {
    this.vertx = vertx;
    this.client = client;
    this.up = up;
    this.circuits = new ApiCircuits(vertx, client);
    this.stores =
        new Stores(
            new ApiIdempotencyStore(client),
            new ResilientQuotaStore(
                new ApiQuotaStore(client),
                Stores.local().quotas(),
                options.writesWhenUnavailable(),
                up),
            circuits);
  }

  /** Reads the token, then serves; {@code up} hears each change of reachability. */
  public static Future<ApiStores> start(
      Vertx vertx, SharedStateOptions options, Consumer<Boolean> up) {
    return StateApiClient.start(vertx, options.api())
        .map(client -> new ApiStores(vertx, client, options, up));
  }

  public Stores stores() {
    return stores;
  }

  /**
   * Polls the configuration published under {@code key} every {@code periodMs}, handing over each
   * new one (on the caller's context).
   */
  public void follow(String key, long periodMs, Consumer<byte[]> onConfig) {
    poll = vertx.setPeriodic(0, periodMs, t -> pollOnce(key, onConfig));
  }

  private void pollOnce(String key, Consumer<byte[]> onConfig) {
    client
        .config(key, etag)
        .onSuccess(
            answer -> {
              up.accept(true);
              if (answer.status() == 200) {
                etag = answer.etag();
                Buffer body = answer.body();
                onConfig.accept(body.getBytes());
              }
            })
        .onFailure(
            e -> {
              up.accept(false);
              LOG.debug("cannot read the published configuration: {}", e.toString());
            });
  }

  public Future<Void> close() {
    if (poll >= 0) {
      vertx.cancelTimer(poll);
    }
    circuits.close();
    return client.close();
  }
}
