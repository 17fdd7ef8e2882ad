package dev.toolgate.sidecar.evidence;

import java.io.PrintStream;

/** Where attempt events go. */
public interface EventSink {

  void accept(AttemptEvent event);

  /** One JSON line per event on the given stream (stdout in production: log collectors read it). */
  static EventSink jsonLines(PrintStream out) {
    return event -> {
      String line = event.toJson().encode();
      synchronized (out) {
        out.println(line);
        out.flush();
      }
    };
  }
}
