package dev.toolgate.sidecar.state.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.sidecar.state.ResilientQuotaStore;
import dev.toolgate.sidecar.state.Stores;
import io.vertx.core.Vertx;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The sidecar's stores on a Hazelcast member or client: quota counters, idempotency records,
 * breaker news, and the configuration the operator publishes. The rest of the sidecar reaches the
 * shared state through this class only, so Hazelcast stays an adapter behind the store interfaces.
 */
public final class HazelcastStores {

  private final HazelcastInstance instance;
  private final Stores stores;
  private final LongSupplier quotaWaits;

  private HazelcastStores(HazelcastInstance instance, Stores stores, LongSupplier quotaWaits) {
    this.instance = instance;
    this.stores = stores;
    this.quotaWaits = quotaWaits;
  }

  /**
   * Starts the member or client (blocking: call it off the event loop) and the stores on it. Reads
   * fall back to local counters when the cluster cannot be reached, writes as {@code options} say;
   * {@code up} hears each change of reachability.
   */
  public static HazelcastStores start(
      Vertx vertx, SharedStateOptions options, Consumer<Boolean> up) {
    return on(vertx, SharedState.start(options), options, up);
  }

  /**
   * The state service's member, bound to {@code bindHost}, with the same stores on it (blocking).
   * Only the state service runs one: no sidecar and no agent ever reaches its port in a cluster.
   */
  public static HazelcastStores serviceMember(
      Vertx vertx, SharedStateOptions options, String bindHost) {
    return on(vertx, SharedState.serviceMember(options, bindHost), options, up -> {});
  }

  private static HazelcastStores on(
      Vertx vertx, HazelcastInstance instance, SharedStateOptions options, Consumer<Boolean> up) {
    HazelcastQuotaStore quotas = new HazelcastQuotaStore(vertx, instance);
    Stores stores =
        new Stores(
            new HazelcastIdempotencyStore(vertx, instance, Stores.IDEMPOTENCY_RECORD_TTL_MS),
            new ResilientQuotaStore(
                quotas, Stores.local().quotas(), options.writesWhenUnavailable(), up),
            new HazelcastCircuits(vertx, instance));
    return new HazelcastStores(instance, stores, quotas::waits);
  }

  /**
   * Why an embedded member does not belong in a Kubernetes pod, when {@code env} says this process
   * runs in one: every container of the pod shares its loopback, the agent's included.
   */
  public static Optional<String> podWarning(SharedStateOptions options, Map<String, String> env) {
    if (options.mode() != SharedStateOptions.Mode.EMBEDDED
        || !env.containsKey("KUBERNETES_SERVICE_HOST")) {
      return Optional.empty();
    }
    return Optional.of(
        "sharedState.mode is embedded inside a Kubernetes pod: the member binds 127.0.0.1, which"
            + " every container of the pod shares, the agent's included, and Hazelcast Community"
            + " authenticates no caller, so the agent could rewrite counters and records. Embedded"
            + " is for one machine only.");
  }

  public Stores stores() {
    return stores;
  }

  /** Quota checks that waited for a round trip to the cluster. */
  public LongSupplier quotaWaits() {
    return quotaWaits;
  }

  /**
   * Follows the configuration published under {@code key} (blocking: call it off the event loop).
   */
  public void follow(String key, Consumer<byte[]> onConfig) {
    ConfigFeed.follow(instance, key, onConfig);
  }

  /** The configuration published under {@code key}, or null (blocking). */
  public String publishedConfig(String key) {
    return ConfigFeed.get(instance, key);
  }

  /** Publishes a configuration under {@code key} (blocking). */
  public void publishConfig(String key, String config) {
    ConfigFeed.put(instance, key, config);
  }

  /** Breaker news by namespace, for the state service's callers. */
  public CircuitBoard circuitBoard() {
    return new CircuitBoard(instance);
  }

  /** Withdraws the configuration published under {@code key} (blocking). */
  public void withdrawConfig(String key) {
    ConfigFeed.delete(instance, key);
  }

  /** The member's port (its address as the other members reach it). */
  public int memberPort() {
    return instance.getCluster().getLocalMember().getAddress().getPort();
  }

  /** Leaves the cluster (blocking). */
  public void shutdown() {
    instance.shutdown();
  }
}
