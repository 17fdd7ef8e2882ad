package dev.toolgate.sidecar.mcp;

import io.vertx.core.buffer.Buffer;

/**
 * One server-sent event as it arrived: its raw bytes (forwarded unchanged unless rewritten) and the
 * fields read from them.
 *
 * @param raw the event's bytes, blank-line terminator included
 * @param id the {@code id:} field, or null
 * @param type the {@code event:} field, or null (meaning "message")
 * @param data the {@code data:} lines joined by '\n', or null when the event has none
 */
public record SseEvent(Buffer raw, String id, String type, String data) {

  /** Whether this event carries a JSON-RPC message (the default event type with data). */
  public boolean isMessage() {
    return data != null && !data.isEmpty() && (type == null || type.equals("message"));
  }

  /** Serialises a new event with the given fields. */
  public static Buffer format(String id, String type, String data) {
    StringBuilder sb = new StringBuilder(data.length() + 32);
    if (id != null) {
      sb.append("id: ").append(id).append('\n');
    }
    if (type != null) {
      sb.append("event: ").append(type).append('\n');
    }
    for (String line : data.split("\n", -1)) {
      sb.append("data: ").append(line).append('\n');
    }
    return Buffer.buffer(sb.append('\n').toString());
  }
}
