package dev.toolgate.sidecar.support;

import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.evidence.EventSink;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Keeps every attempt event the sidecar emits, for assertions. */
public final class RecordingEvents implements EventSink {
  private final List<AttemptEvent> events = new CopyOnWriteArrayList<>();
  private final List<io.vertx.core.json.JsonObject> audits = new CopyOnWriteArrayList<>();

  @Override
  public void audit(io.vertx.core.json.JsonObject record) {
    audits.add(record);
  }

  public List<io.vertx.core.json.JsonObject> audits() {
    return List.copyOf(audits);
  }

  /** While set, {@link #accept} blocks its caller (the event loop) until {@link #release}, for at most 10 s. */
  private volatile CountDownLatch held;

  /** Makes the next events wait in {@link #accept}: shows what the sidecar does before recording. */
  public void hold() {
    held = new CountDownLatch(1);
  }

  public void release() {
    CountDownLatch latch = held;
    held = null;
    if (latch != null) {
      latch.countDown();
    }
  }

  @Override
  public void accept(AttemptEvent event) {
    CountDownLatch latch = held;
    if (latch != null) {
      try {
        latch.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    events.add(event);
  }

  public List<AttemptEvent> all() {
    return List.copyOf(events);
  }

  /** The first event of a tool, waiting for it: events are written just after the answer. */
  public AttemptEvent first(String tool) {
    return org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(10))
        .until(() -> forTool(tool), list -> !list.isEmpty())
        .get(0);
  }

  public List<AttemptEvent> forTool(String tool) {
    return events.stream().filter(e -> e.tool().equals(tool)).toList();
  }
}
