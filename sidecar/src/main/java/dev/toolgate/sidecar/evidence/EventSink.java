package dev.toolgate.sidecar.evidence;

import java.io.PrintStream;

/** Where attempt events go. */
public interface EventSink {

  void accept(AttemptEvent event);

  /** An audit record (a quota block with the session's last calls), one JSON object. */
  void audit(io.vertx.core.json.JsonObject record);

  /** One JSON line per event on the given stream (stdout in production: log collectors read it). */
  static EventSink jsonLines(PrintStream out) {
    return new EventSink() {
      @Override
      public void accept(AttemptEvent event) {
        line(event.toJson().encode());
      }

      @Override
      public void audit(io.vertx.core.json.JsonObject record) {
        line(record.encode());
      }

      private void line(String line) {
        synchronized (out) {
          out.println(line);
          out.flush();
        }
      }
    };
  }
}
