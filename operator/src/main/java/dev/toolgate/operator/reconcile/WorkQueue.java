package dev.toolgate.operator.reconcile;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keys to reconcile ({@code namespace/name}), handled one at a time on one thread. A key queued
 * while already waiting is not queued twice; a failed reconciliation is retried with exponential
 * backoff (1 s doubling to 5 min), reset after a success. Timers, never sleeps.
 */
public final class WorkQueue implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WorkQueue.class);
  static final long FIRST_BACKOFF_MS = 1_000;
  static final long MAX_BACKOFF_MS = 300_000;

  private final ScheduledExecutorService worker =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "toolgate-reconciler");
            t.setDaemon(true);
            return t;
          });
  private final Set<String> waiting = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> backoffMs = new ConcurrentHashMap<>();
  private final Consumer<String> reconcile;

  public WorkQueue(Consumer<String> reconcile) {
    this.reconcile = reconcile;
  }

  /** Keys waiting to be reconciled, backing off ones included. */
  public int depth() {
    return waiting.size();
  }

  public void add(String key) {
    schedule(key, 0);
  }

  private void schedule(String key, long delayMs) {
    if (waiting.add(key)) {
      worker.schedule(() -> run(key), delayMs, TimeUnit.MILLISECONDS);
    }
  }

  private void run(String key) {
    waiting.remove(key);
    try {
      reconcile.accept(key);
      backoffMs.remove(key);
    } catch (RuntimeException e) {
      long delay =
          backoffMs.merge(key, FIRST_BACKOFF_MS, (old, first) -> Math.min(MAX_BACKOFF_MS, old * 2));
      LOG.warn("reconciling {} failed ({}); retrying in {} ms", key, e.getMessage(), delay);
      schedule(key, delay);
    }
  }

  @Override
  public void close() {
    worker.shutdownNow();
  }
}
