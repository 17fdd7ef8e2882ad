package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IntentRegistryTest {

  private static final long WINDOW_MS = 60_000;

  private final IntentRegistry registry = new IntentRegistry();

  @Test
  void givesIdenticalCallsWithinTheWindowOneIntent() {
    String first = registry.intentFor("fp", 1_000, WINDOW_MS);

    assertThat(registry.intentFor("fp", 1_000 + WINDOW_MS - 1, WINDOW_MS)).isEqualTo(first);
    assertThat(registry.intentFor("other", 1_000, WINDOW_MS)).isNotEqualTo(first);
  }

  @Test
  void startsANewIntentOnceTheWindowHasPassedSinceTheLastSighting() {
    String first = registry.intentFor("fp", 1_000, WINDOW_MS);
    registry.intentFor("fp", 50_000, WINDOW_MS);

    assertThat(registry.intentFor("fp", 50_000 + WINDOW_MS - 1, WINDOW_MS)).isEqualTo(first);
    assertThat(registry.intentFor("fp", 50_000 + 2 * WINDOW_MS, WINDOW_MS)).isNotEqualTo(first);
  }

  @Test
  void anEarlierCallAskingAfterALaterOneDoesNotMoveTheLastSightingBack() {
    String later = registry.intentFor("fp", 50_000, WINDOW_MS);

    assertThat(registry.intentFor("fp", 10_000, WINDOW_MS)).isEqualTo(later);
    assertThat(registry.intentFor("fp", 50_000 + WINDOW_MS - 1, WINDOW_MS))
        .as("the window still runs from the later sighting, not from the earlier call's arrival")
        .isEqualTo(later);
  }

  @Test
  void forgetsIntentsNotSeenWithinTheWindow() {
    String first = registry.intentFor("fp", 1_000, WINDOW_MS);

    registry.expire(1_000 + WINDOW_MS, WINDOW_MS);

    assertThat(registry.intentFor("fp", 1_000 + WINDOW_MS - 1, WINDOW_MS)).isNotEqualTo(first);
  }
}
