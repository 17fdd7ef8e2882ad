package dev.toolgate.sidecar.evidence;

import io.vertx.core.json.JsonObject;
import java.io.OutputStream;

/** Where attempt events go. */
public interface EventSink {

  /** Events a JSON-lines sink holds while its output is slow, before it drops (and counts) more. */
  int DEFAULT_CAPACITY = 8192;

  void accept(AttemptEvent event);

  /** An audit record (a quota block with the session's last calls), one JSON object. */
  void audit(JsonObject record);

  /** Events lost because the output could not keep up (or failed); 0 for sinks that never drop. */
  default long dropped() {
    return 0;
  }

  /** Writes what is still held and stops; later events are dropped. */
  default void close() {}

  /**
   * One JSON line per event on the given stream (stdout in production: log collectors read it),
   * written by a thread of its own so that a slow reader of the stream never stalls a call.
   */
  static EventSink jsonLines(OutputStream out) {
    return jsonLines(out, DEFAULT_CAPACITY);
  }

  /** As {@link #jsonLines(OutputStream)}, holding at most {@code capacity} events. */
  static EventSink jsonLines(OutputStream out, int capacity) {
    return new JsonLinesSink(out, capacity);
  }
}
