package dev.toolgate.operator.reconcile;

import dev.toolgate.operator.crd.ToolPolicy;
import dev.toolgate.operator.health.OperatorMetrics;
import dev.toolgate.operator.render.Revisions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's loop: while this replica holds the lease (two replicas never both reconcile),
 * informers on ToolPolicies and on the ConfigMaps the operator owns, in every namespace, feed the
 * work queue, and the queue runs the reconciler. A resync every 10 minutes reconciles every policy
 * again, and a change to an owned ConfigMap reconciles its policy, so drift is repaired without a
 * spec change. Losing the lease stops the informers and the queue, and the replica runs for the
 * lease again (fabric8's elector is single-use: a new one is started), as long as it is not closed.
 */
public final class OperatorRuntime implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OperatorRuntime.class);
  public static final String LEASE_NAME = "toolgate-operator";
  static final long RESYNC_MS = 600_000;

  private final KubernetesClient client;
  private final ToolPolicyReconciler reconciler;
  private final String leaseNamespace;
  private final String identity;
  private final Duration leaseDuration;
  private final OperatorMetrics metrics;
  private volatile WorkQueue queue;
  private SharedIndexInformer<ToolPolicy> informer;
  private SharedIndexInformer<ConfigMap> owned;
  private CompletableFuture<?> election;
  private volatile boolean leading;
  private volatile boolean closed;
  private final AtomicInteger elections = new AtomicInteger();

  public OperatorRuntime(
      KubernetesClient client,
      ToolPolicyReconciler reconciler,
      String leaseNamespace,
      String identity,
      Duration leaseDuration) {
    this(client, reconciler, leaseNamespace, identity, leaseDuration, OperatorMetrics.inMemory());
  }

  public OperatorRuntime(
      KubernetesClient client,
      ToolPolicyReconciler reconciler,
      String leaseNamespace,
      String identity,
      Duration leaseDuration,
      OperatorMetrics metrics) {
    this.metrics = metrics;
    metrics.leading(() -> leading);
    metrics.queueDepth(
        () -> {
          WorkQueue current = queue;
          return current == null ? 0 : current.depth();
        });
    this.client = client;
    this.reconciler = reconciler;
    this.leaseNamespace = leaseNamespace;
    this.identity = identity;
    this.leaseDuration = leaseDuration;
  }

  public synchronized void start() {
    if (closed) {
      return;
    }
    elections.incrementAndGet();
    election =
        client
            .leaderElector()
            .withConfig(
                new LeaderElectionConfigBuilder()
                    .withName(LEASE_NAME)
                    .withLock(new LeaseLock(leaseNamespace, LEASE_NAME, identity))
                    .withLeaseDuration(leaseDuration)
                    .withRenewDeadline(leaseDuration.multipliedBy(2).dividedBy(3))
                    .withRetryPeriod(leaseDuration.dividedBy(5))
                    .withReleaseOnCancel()
                    .withLeaderCallbacks(
                        new LeaderCallbacks(
                            this::lead,
                            this::stopLeading,
                            leader -> LOG.info("the operator leader is {}", leader)))
                    .build())
            .build()
            .start();
    election.whenComplete((done, failure) -> runAgain(failure));
  }

  /** The elector ended (the lease lost, or an error): unless closing, run for the lease again. */
  private void runAgain(Throwable failure) {
    if (closed) {
      return;
    }
    LOG.warn(
        "{}: the leader election ended ({}); running for the lease again",
        identity,
        failure == null ? "lease lost" : failure.getMessage());
    stopLeading();
    start();
  }

  /** How many times this replica ran for the lease: 1, plus one per lease lost. */
  public int elections() {
    return elections.get();
  }

  /** Null while the replica runs for the lease or holds it, else why not (for /healthz). */
  public String notLive() {
    CompletableFuture<?> current = election;
    return closed || current == null || !current.isDone() ? null : "the leader election stopped";
  }

  public boolean leading() {
    return leading;
  }

  private synchronized void lead() {
    LOG.info("{} leads: reconciling ToolPolicies", identity);
    leading = true;
    queue =
        new WorkQueue(
            key -> {
              int slash = key.indexOf('/');
              long start = System.nanoTime();
              try {
                String result =
                    reconciler.reconcile(key.substring(0, slash), key.substring(slash + 1));
                metrics.reconciled(result, Duration.ofNanos(System.nanoTime() - start));
              } catch (RuntimeException e) {
                metrics.reconciled(
                    OperatorMetrics.ERROR, Duration.ofNanos(System.nanoTime() - start));
                throw e;
              }
            });
    informer =
        client
            .resources(ToolPolicy.class)
            .inAnyNamespace()
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(ToolPolicy policy) {
                    enqueue(policy);
                  }

                  @Override
                  public void onUpdate(ToolPolicy before, ToolPolicy after) {
                    if (worthReconciling(before, after)) {
                      enqueue(after);
                    }
                  }

                  @Override
                  public void onDelete(ToolPolicy policy, boolean unknownFinalState) {
                    enqueue(policy);
                  }
                },
                RESYNC_MS);
    owned =
        client
            .configMaps()
            .inAnyNamespace()
            .withLabel(Revisions.LABEL_POLICY)
            .inform(ownedConfigMaps(), RESYNC_MS);
  }

  /**
   * A resync (the same version delivered again) and any change but the status's: the operator's own
   * status writes come back as updates and would otherwise loop.
   */
  static boolean worthReconciling(ToolPolicy before, ToolPolicy after) {
    var was = before.getMetadata();
    var is = after.getMetadata();
    return Objects.equals(was.getResourceVersion(), is.getResourceVersion())
        || !Objects.equals(was.getGeneration(), is.getGeneration())
        || !Objects.equals(before.getSpec(), after.getSpec())
        || !Objects.equals(was.getAnnotations(), is.getAnnotations())
        || !Objects.equals(was.getFinalizers(), is.getFinalizers())
        || !Objects.equals(was.getDeletionTimestamp(), is.getDeletionTimestamp());
  }

  /** A change to a ConfigMap the operator owns reconciles the policy that owns it. */
  private ResourceEventHandler<ConfigMap> ownedConfigMaps() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(ConfigMap map) {}

      @Override
      public void onUpdate(ConfigMap before, ConfigMap after) {
        if (!Objects.equals(
            before.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion())) {
          enqueueOwner(after);
        }
      }

      @Override
      public void onDelete(ConfigMap map, boolean unknownFinalState) {
        enqueueOwner(map);
      }
    };
  }

  private void enqueueOwner(ConfigMap map) {
    String policy = map.getMetadata().getLabels().get(Revisions.LABEL_POLICY);
    WorkQueue current = queue;
    if (policy != null && current != null) {
      current.add(map.getMetadata().getNamespace() + "/" + policy);
    }
  }

  private void enqueue(ToolPolicy policy) {
    WorkQueue current = queue;
    if (current != null) {
      current.add(policy.getMetadata().getNamespace() + "/" + policy.getMetadata().getName());
    }
  }

  private synchronized void stopLeading() {
    LOG.info("{} stopped leading", identity);
    leading = false;
    if (informer != null) {
      informer.close();
      informer = null;
    }
    if (owned != null) {
      owned.close();
      owned = null;
    }
    if (queue != null) {
      queue.close();
      queue = null;
    }
  }

  @Override
  public void close() {
    closed = true;
    if (election != null) {
      election.cancel(true);
    }
    stopLeading();
  }
}
