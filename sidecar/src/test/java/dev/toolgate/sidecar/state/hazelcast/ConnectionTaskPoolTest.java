package dev.toolgate.sidecar.state.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cap on a pool held in a private field, as the Hazelcast client's connection manager holds it.
 */
class ConnectionTaskPoolTest {

  /** Holds its pool as the client's connection manager does. */
  private static final class Manager {
    private final ScheduledExecutorService executor = new ScheduledThreadPoolExecutor(10);
  }

  /** Names its pool otherwise, as another Hazelcast version might. */
  private static final class Renamed {
    private final ScheduledExecutorService tasks = new ScheduledThreadPoolExecutor(10);
  }

  private final Manager manager = new Manager();
  private final Renamed renamed = new Renamed();

  @AfterEach
  void stop() {
    manager.executor.shutdownNow();
    renamed.tasks.shutdownNow();
  }

  @Test
  void aCappedPoolStartsNoMoreThreadsThanItsCapHoweverManyTasksItIsGiven() throws Exception {
    assertThat(ConnectionTaskPool.cap(manager, 2)).isTrue();

    CountDownLatch ran = new CountDownLatch(10);
    for (int i = 0; i < 10; i++) {
      manager.executor.schedule(ran::countDown, 1, TimeUnit.MILLISECONDS);
    }

    assertThat(ran.await(10, TimeUnit.SECONDS)).as("every task ran").isTrue();
    assertThat(((ScheduledThreadPoolExecutor) manager.executor).getLargestPoolSize()).isEqualTo(2);
  }

  @Test
  void threadsStartedBeforeTheCapEndOnceIdle() throws Exception {
    ScheduledThreadPoolExecutor pool = (ScheduledThreadPoolExecutor) manager.executor;
    CountDownLatch ran = new CountDownLatch(6);
    for (int i = 0; i < 6; i++) {
      pool.execute(ran::countDown);
    }
    assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(pool.getPoolSize())
        .as("one thread per task, as the client's pool grows")
        .isEqualTo(6);

    ConnectionTaskPool.cap(manager, 2);

    await("the threads over the cap end")
        .atMost(Duration.ofSeconds(10))
        .until(() -> pool.getPoolSize() <= 2);
  }

  @Test
  void leavesAPoolItDoesNotFindAsItIs() {
    assertThat(ConnectionTaskPool.cap(renamed, 2)).isFalse();
    assertThat(ConnectionTaskPool.cap(new Object(), 2)).isFalse();

    assertThat(((ScheduledThreadPoolExecutor) renamed.tasks).getCorePoolSize()).isEqualTo(10);
  }

  @Test
  void neverRaisesAPoolAlreadySmallerThanTheCap() {
    ((ScheduledThreadPoolExecutor) manager.executor).setCorePoolSize(1);

    assertThat(ConnectionTaskPool.cap(manager, 2)).isTrue();

    assertThat(((ScheduledThreadPoolExecutor) manager.executor).getCorePoolSize()).isEqualTo(1);
  }
}
