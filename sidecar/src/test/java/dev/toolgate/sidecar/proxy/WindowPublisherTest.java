package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WindowPublisherTest {

  /** Timers the test fires by hand: what is set, with its delay, and what was cancelled. */
  private static final class HandTimers implements WindowPublisher.Timers {
    final Map<Long, Runnable> pending = new LinkedHashMap<>();
    final List<Long> delays = new ArrayList<>();
    final List<Long> cancelled = new ArrayList<>();
    long next;

    @Override
    public long set(long delayMs, Runnable task) {
      delays.add(delayMs);
      pending.put(next, task);
      return next++;
    }

    @Override
    public void cancel(long id) {
      cancelled.add(id);
      pending.remove(id);
    }

    void fireAll() {
      List<Runnable> due = new ArrayList<>(pending.values());
      pending.clear();
      due.forEach(Runnable::run);
    }
  }

  private final HandTimers timers = new HandTimers();
  private int published;
  private final WindowPublisher publisher = new WindowPublisher(timers, 250, () -> published++);

  @Test
  void setsNoTimerWhileNothingChanges() {
    assertThat(timers.delays).isEmpty();
    assertThat(published).isZero();
  }

  @Test
  void publishesTheChangesOfOneDelayOnceWhenItEnds() {
    publisher.changed();
    publisher.changed();
    publisher.changed();

    assertThat(timers.delays).containsExactly(250L);
    assertThat(published).isZero();

    timers.fireAll();

    assertThat(published).isEqualTo(1);
  }

  @Test
  void aChangeAfterAPublicationSetsTheNextOne() {
    publisher.changed();
    timers.fireAll();
    publisher.changed();
    timers.fireAll();

    assertThat(timers.delays).containsExactly(250L, 250L);
    assertThat(published).isEqualTo(2);
  }

  @Test
  void aChangeMadeWhilePublishingIsPublishedNextTime() {
    WindowPublisher[] self = new WindowPublisher[1];
    self[0] =
        new WindowPublisher(
            timers,
            250,
            () -> {
              published++;
              if (published == 1) {
                self[0].changed();
              }
            });
    self[0].changed();
    timers.fireAll();

    assertThat(timers.pending).hasSize(1);
    timers.fireAll();
    assertThat(published).isEqualTo(2);
  }

  @Test
  void closingCancelsThePendingPublicationAndIgnoresLaterChanges() {
    publisher.changed();
    publisher.close();
    publisher.changed();

    assertThat(timers.cancelled).containsExactly(0L);
    assertThat(timers.pending).isEmpty();
    assertThat(published).isZero();
  }

  @Test
  void refusesADelayThatIsNotAboveZero() {
    assertThatThrownBy(() -> new WindowPublisher(timers, 0, () -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the publication delay must be above 0 ms, was 0");
  }
}
