package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class IdRegistryTest {

  private static final Instant T0 = Instant.parse("2026-12-07T00:00:00Z");

  private final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
  private final String scope = IdRegistry.scope("api", "session-1");

  @Test
  void anAnsweredRequestIsNoLongerAwaitedButItsReplayGetsTheAgentsIdInItsSessionOnly() {
    IdRegistry ids = new IdRegistry(clock);
    IdRegistry.Pending pending = ids.register(scope, 7, "tg-1-2-a1", T0.toEpochMilli() + 60_000);

    ids.answered(pending);

    assertThat(ids.byUpstreamId("tg-1-2-a1")).isNull();
    assertThat(ids.byClientId(scope, 7)).isNull();
    assertThat(ids.answeredClientId(scope, "tg-1-2-a1")).isEqualTo(7);
    assertThat(ids.answeredClientId(IdRegistry.scope("api", "session-2"), "tg-1-2-a1"))
        .as("another session's stream")
        .isNull();
    assertThat(ids.answeredClientId(scope, "tg-1-2-a2")).as("never answered").isNull();
  }

  @Test
  void anAnsweredRequestIsForgottenOnceItsTimeIsUp() {
    IdRegistry ids = new IdRegistry(clock);
    ids.answered(ids.register(scope, 1, "tg-1", Long.MAX_VALUE));

    ids.expire(T0.toEpochMilli() + IdRegistry.ANSWERED_KEPT_MS - 1);
    assertThat(ids.answeredClientId(scope, "tg-1")).isEqualTo(1);
    ids.expire(T0.toEpochMilli() + IdRegistry.ANSWERED_KEPT_MS);
    assertThat(ids.answeredClientId(scope, "tg-1")).isNull();
  }

  @Test
  void onlyTheNewestAnsweredRequestsAreKept() {
    IdRegistry ids = new IdRegistry(clock);
    for (int i = 0; i <= IdRegistry.ANSWERED_KEPT; i++) {
      ids.answered(ids.register(scope, i, "tg-" + i, Long.MAX_VALUE));
    }

    assertThat(ids.answeredClientId(scope, "tg-0")).as("the eldest").isNull();
    assertThat(ids.answeredClientId(scope, "tg-1")).isEqualTo(1);
    assertThat(ids.answeredClientId(scope, "tg-" + IdRegistry.ANSWERED_KEPT))
        .isEqualTo(IdRegistry.ANSWERED_KEPT);
  }
}
