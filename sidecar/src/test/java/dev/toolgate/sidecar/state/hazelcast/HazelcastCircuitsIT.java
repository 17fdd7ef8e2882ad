package dev.toolgate.sidecar.state.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.core.HazelcastInstance;
import dev.toolgate.policy.breaker.WindowSnapshot;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Breaker windows shared through a real Hazelcast member. */
class HazelcastCircuitsIT {

  private Vertx vertx;
  private HazelcastInstance member;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    member = LoopbackMember.start("circuits");
  }

  @AfterEach
  void stop() throws Exception {
    member.shutdown();
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  void aReplicaStartedAfterAWindowWasPublishedCountsIt() {
    long now = System.currentTimeMillis();
    long second = now / 1000;
    HazelcastCircuits first = new HazelcastCircuits(vertx, member);
    first.publishWindow("api/get_job", List.of(new long[] {second, 5, 2, 0}), 60_000);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> member.getMap(HazelcastCircuits.WINDOWS).size() == 1);

    // Windows are published when they change: the late replica must read what is already there.
    HazelcastCircuits late = new HazelcastCircuits(vertx, member);

    WindowSnapshot peers = late.peerWindow("api/get_job", now - 1_000, now, 60);
    assertThat(peers.calls()).isEqualTo(5);
    assertThat(peers.failures()).isEqualTo(2);
  }
}
