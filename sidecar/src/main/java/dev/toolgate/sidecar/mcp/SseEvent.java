package dev.toolgate.sidecar.mcp;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * One server-sent event as it arrived: its raw bytes (forwarded unchanged unless rewritten) and the
 * fields read from them.
 *
 * @param raw the event's bytes, blank-line terminator included
 * @param id the {@code id:} field, or null
 * @param type the {@code event:} field, or null (meaning "message")
 * @param data the {@code data:} lines' bytes joined by '\n', or null when the event has none; one
 *     line's are a view of {@code raw}
 */
public record SseEvent(Buffer raw, String id, String type, Buffer data) {

  /** Whether this event carries a JSON-RPC message (the default event type with data). */
  public boolean isMessage() {
    return data != null && data.length() > 0 && (type == null || type.equals("message"));
  }

  /**
   * Whether the data holds {@code text}, searched in its UTF-8 bytes: a relay asks this of every
   * event it passes on, and decoding each event's data only to search it would copy it twice.
   */
  public boolean dataContains(String text) {
    if (data == null) {
      return false;
    }
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    int last = data.length() - needle.length;
    for (int i = 0; i <= last; i++) {
      int j = 0;
      while (j < needle.length && data.getByte(i + j) == needle[j]) {
        j++;
      }
      if (j == needle.length) {
        return true;
      }
    }
    return false;
  }

  /** The data as text, or null when the event has none. */
  public String dataText() {
    return data == null ? null : data.toString(StandardCharsets.UTF_8);
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
