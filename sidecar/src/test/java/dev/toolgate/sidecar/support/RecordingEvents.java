package dev.toolgate.sidecar.support;

import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.evidence.EventSink;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

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

  @Override
  public void accept(AttemptEvent event) {
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
