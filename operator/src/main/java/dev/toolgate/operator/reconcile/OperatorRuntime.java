package dev.toolgate.operator.reconcile;

import dev.toolgate.operator.crd.ToolPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's loop: while this replica holds the lease (two replicas never both reconcile), an
 * informer on ToolPolicies in every namespace feeds the work queue, and the queue runs the
 * reconciler. Losing the lease stops the informer.
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
  private WorkQueue queue;
  private SharedIndexInformer<ToolPolicy> informer;
  private CompletableFuture<?> election;
  private volatile boolean leading;

  public OperatorRuntime(
      KubernetesClient client,
      ToolPolicyReconciler reconciler,
      String leaseNamespace,
      String identity,
      Duration leaseDuration) {
    this.client = client;
    this.reconciler = reconciler;
    this.leaseNamespace = leaseNamespace;
    this.identity = identity;
    this.leaseDuration = leaseDuration;
  }

  public void start() {
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
              reconciler.reconcile(key.substring(0, slash), key.substring(slash + 1));
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
                    // Status writes come back as updates: only the spec and the annotations
                    // (rollback) matter.
                    if (!java.util.Objects.equals(before.getSpec(), after.getSpec())
                        || !java.util.Objects.equals(
                            before.getMetadata().getAnnotations(),
                            after.getMetadata().getAnnotations())) {
                      enqueue(after);
                    }
                  }

                  @Override
                  public void onDelete(ToolPolicy policy, boolean unknownFinalState) {
                    enqueue(policy);
                  }
                },
                RESYNC_MS);
  }

  private void enqueue(ToolPolicy policy) {
    queue.add(policy.getMetadata().getNamespace() + "/" + policy.getMetadata().getName());
  }

  private synchronized void stopLeading() {
    LOG.info("{} stopped leading", identity);
    leading = false;
    if (informer != null) {
      informer.close();
      informer = null;
    }
    if (queue != null) {
      queue.close();
      queue = null;
    }
  }

  @Override
  public void close() {
    if (election != null) {
      election.cancel(true);
    }
    stopLeading();
  }
}
