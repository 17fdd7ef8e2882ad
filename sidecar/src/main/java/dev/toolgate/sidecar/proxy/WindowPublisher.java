package dev.toolgate.sidecar.proxy;

import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Publishes the breakers' windows to the other replicas a short delay after one changes, instead of
 * on a fixed period: the changes made within the delay go out together, as they did on the period,
 * and a sidecar that serves no call sets no timer at all (on a fixed 250 ms period it woke four
 * times a second for nothing).
 *
 * <p>Cost: one compare-and-set per recorded outcome; one timer per delay while outcomes come.
 */
final class WindowPublisher {

  /** Sets and cancels one-shot timers: Vert.x's in the sidecar, a test's own in tests. */
  interface Timers {
    long set(long delayMs, Runnable task);

    void cancel(long id);
  }

  private final Timers timers;
  private final long delayMs;
  private final Runnable publish;
  private final AtomicBoolean armed = new AtomicBoolean();
  private volatile long timer = -1;
  private volatile boolean closed;

  WindowPublisher(Timers timers, long delayMs, Runnable publish) {
    if (delayMs <= 0) {
      throw new IllegalArgumentException(
          "the publication delay must be above 0 ms, was " + delayMs);
    }
    this.timers = timers;
    this.delayMs = delayMs;
    this.publish = publish;
  }

  /** On Vert.x's timers. */
  static WindowPublisher onVertx(Vertx vertx, long delayMs, Runnable publish) {
    return new WindowPublisher(
        new Timers() {
          @Override
          public long set(long delay, Runnable task) {
            return vertx.setTimer(delay, id -> task.run());
          }

          @Override
          public void cancel(long id) {
            vertx.cancelTimer(id);
          }
        },
        delayMs,
        publish);
  }

  /** A breaker's window changed: publish within the delay, unless a publication is already due. */
  void changed() {
    if (!closed && armed.compareAndSet(false, true)) {
      timer = timers.set(delayMs, this::fire);
    }
  }

  private void fire() {
    // Disarmed first: a change made while publishing arms the next publication.
    armed.set(false);
    if (!closed) {
      publish.run();
    }
  }

  /** No publication after this one: a pending one is cancelled. */
  void close() {
    closed = true;
    long pending = timer;
    if (pending >= 0) {
      timers.cancel(pending);
    }
  }
}
