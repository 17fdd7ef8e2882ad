package dev.toolgate.sidecar.state.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.client.impl.clientside.HazelcastClientProxy;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import dev.toolgate.e2e.support.LoopbackPorts;
import dev.toolgate.policy.config.SharedStateOptions;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A sidecar's Hazelcast client, against a real member, keeps the few threads it is configured for
 * while its connection manager's once-a-second task runs, and still serves the shared state, after
 * losing its cluster too, however long the cluster was away; a client whose cluster never answers
 * fails the start naming it.
 */
class ClientThreadsIT {

  private HazelcastInstance member;
  private HazelcastInstance client;

  @AfterEach
  void stop() {
    if (client != null) {
      client.shutdown();
    }
    if (member != null) {
      member.shutdown();
    }
  }

  private static HazelcastInstance member(String cluster, int port, List<String> peers) {
    return SharedState.start(
        new SharedStateOptions(
            SharedStateOptions.Mode.EMBEDDED, cluster, peers, null, port, null, null));
  }

  /** A sidecar's client of {@code cluster} at {@code addresses}. */
  private static HazelcastInstance client(String cluster, List<String> addresses) {
    return SharedState.start(
        new SharedStateOptions(
            SharedStateOptions.Mode.CLIENT, cluster, addresses, null, null, null, null));
  }

  private long threadsNamed(String infix) {
    String prefix = client.getName() + "." + infix;
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.isAlive() && thread.getName().startsWith(prefix))
        .count();
  }

  @Test
  void aClientRunsItsConnectionTasksOnTwoThreadsNotTheTenItsPoolWouldGrowTo() throws Exception {
    String cluster = "client-threads-" + UUID.randomUUID();
    int port = LoopbackPorts.next();
    member = member(cluster, port, List.of("127.0.0.1:" + port));
    client = client(cluster, List.of("127.0.0.1:" + port));

    // The connection manager's pool and the execution service's one-thread pool share the name.
    await("the internal threads, while the connect task runs each second")
        .during(Duration.ofSeconds(4))
        .atMost(Duration.ofSeconds(6))
        .until(() -> threadsNamed("internal-") <= ConnectionTaskPool.THREADS + 1);

    IMap<String, String> sessions = client.getMap(HazelcastQuotaStore.SESSIONS);
    for (int i = 0; i < 100; i++) {
      sessions.set("session-" + i, "count-" + i);
    }
    assertThat(sessions.get("session-99")).isEqualTo("count-99");
    // Started when responses are many, if ever; at most the one configured.
    assertThat(threadsNamed("responsethread-")).as("response threads").isLessThanOrEqualTo(1);
  }

  @Test
  void aCappedClientReconnectsToItsClusterAfterLosingIt() throws Exception {
    String cluster = "client-reconnects-" + UUID.randomUUID();
    int first = LoopbackPorts.next();
    int second = LoopbackPorts.next();
    List<String> addresses = List.of("127.0.0.1:" + first, "127.0.0.1:" + second);
    member = member(cluster, first, List.of(addresses.get(0)));
    client = client(cluster, addresses);
    client.getMap(HazelcastQuotaStore.SESSIONS).set("before", "lost with its member");

    member.shutdown();
    await("the client sees its cluster gone")
        .atMost(Duration.ofSeconds(20))
        .until(() -> !connected());
    member = member(cluster, second, List.of(addresses.get(1)));

    IMap<String, String> sessions = client.getMap(HazelcastQuotaStore.SESSIONS);
    await("the client serves again, on the cluster's new member")
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(
            () -> {
              sessions.set("after", "count-1");
              return "count-1".equals(sessions.get("after"));
            });
    assertThat(threadsNamed("internal-")).isLessThanOrEqualTo(ConnectionTaskPool.THREADS + 1);
  }

  @Test
  void aClientAwayFromItsClusterLongerThanItsStartMayWaitReconnectsOnceItIsBack() throws Exception {
    String cluster = "client-patient-" + UUID.randomUUID();
    int port = LoopbackPorts.next();
    member = member(cluster, port, List.of("127.0.0.1:" + port));
    client = client(cluster, List.of("127.0.0.1:" + port));

    member.shutdown();
    await("the client, with its cluster away longer than a start may wait")
        .pollDelay(Duration.ofMillis(SharedState.START_TIMEOUT_MS + 2_000))
        .atMost(Duration.ofMillis(SharedState.START_TIMEOUT_MS + 5_000))
        .until(() -> client.getLifecycleService().isRunning() && !connected());
    member = member(cluster, port, List.of("127.0.0.1:" + port));

    await("the client serves again once its cluster is back")
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(
            () -> {
              IMap<String, String> sessions = client.getMap(HazelcastQuotaStore.SESSIONS);
              sessions.set("after", "count-1");
              return "count-1".equals(sessions.get("after"));
            });
  }

  @Test
  void aClientWhoseClusterNeverAnswersFailsTheStartNamingTheMembers() throws Exception {
    int port = LoopbackPorts.next();
    long started = System.nanoTime();

    IllegalStateException e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            IllegalStateException.class,
            () -> client("nobody-" + UUID.randomUUID(), List.of("127.0.0.1:" + port)));

    assertThat(e).hasMessageContaining("answered within 10000 ms at [127.0.0.1:" + port + "]");
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isBetween(
            Duration.ofMillis(SharedState.START_TIMEOUT_MS),
            Duration.ofMillis(SharedState.START_TIMEOUT_MS + 5_000));
  }

  private boolean connected() {
    return !((HazelcastClientProxy) client)
        .client
        .getConnectionManager()
        .getActiveConnections()
        .isEmpty();
  }
}
