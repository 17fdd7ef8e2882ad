package dev.toolgate.e2e;

import java.util.ArrayList;
import java.util.List;

/** One server-sent event as the agent reads it: its id, its type and its data (joined lines). */
record SseEvent(String id, String type, String data) {

  /**
   * The events of a {@code text/event-stream} body, in order; comments and blank events dropped.
   */
  static List<SseEvent> parse(String body) {
    List<SseEvent> events = new ArrayList<>();
    String id = null;
    String type = null;
    StringBuilder data = null;
    for (String line : (body + "\n\n").split("\r?\n", -1)) {
      if (line.isEmpty()) {
        if (id != null || data != null) {
          events.add(new SseEvent(id, type, data == null ? "" : data.toString()));
        }
        id = null;
        type = null;
        data = null;
      } else if (line.startsWith("id:")) {
        id = line.substring(3).strip();
      } else if (line.startsWith("event:")) {
        type = line.substring(6).strip();
      } else if (line.startsWith("data:")) {
        String value = line.substring(5);
        value = value.startsWith(" ") ? value.substring(1) : value;
        data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
      }
    }
    return events;
  }
}
