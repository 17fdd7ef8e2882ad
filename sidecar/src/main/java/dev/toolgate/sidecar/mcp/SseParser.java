package dev.toolgate.sidecar.mcp;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Splits a byte stream of server-sent events into events, as the bytes arrive, without waiting for
 * the stream to end. Comment-only blocks, priming events (an id with empty data) and {@code retry:}
 * fields come out as events too, so a relay can forward every byte in order.
 *
 * <p>Cost: each byte is scanned once; an event's bytes are copied once. Lines end with CRLF, LF or
 * CR (the SSE grammar); an event ends at an empty line.
 */
public final class SseParser {

  private final Consumer<SseEvent> sink;
  private Buffer pending = Buffer.buffer();
  private int scanned;
  private boolean lineStart = true;
  private boolean crPending;
  private boolean eventEndPending;

  public SseParser(Consumer<SseEvent> sink) {
    this.sink = sink;
  }

  /** Feeds bytes; calls the sink once per complete event. */
  public void feed(Buffer chunk) {
    pending.appendBuffer(chunk);
    int eventStart = 0;
    int length = pending.length();
    for (int i = scanned; i < length; i++) {
      byte b = pending.getByte(i);
      if (crPending) {
        crPending = false;
        if (b == '\n') {
          if (eventEndPending) {
            emit(eventStart, i + 1);
            eventStart = i + 1;
            eventEndPending = false;
          }
          continue;
        }
        if (eventEndPending) {
          emit(eventStart, i);
          eventStart = i;
          eventEndPending = false;
        }
      }
      if (b == '\r') {
        eventEndPending = lineStart;
        lineStart = true;
        crPending = true;
      } else if (b == '\n') {
        if (lineStart) {
          emit(eventStart, i + 1);
          eventStart = i + 1;
        }
        lineStart = true;
      } else {
        lineStart = false;
      }
    }
    if (eventStart > 0) {
      pending = pending.getBuffer(eventStart, length);
    }
    scanned = pending.length();
  }

  /** Bytes received after the last complete event: what a closed stream cut off. */
  public int bufferedBytes() {
    return pending.length();
  }

  private void emit(int from, int to) {
    Buffer raw = pending.getBuffer(from, to);
    String text = raw.toString(StandardCharsets.UTF_8);
    String id = null;
    String type = null;
    StringBuilder data = null;
    for (String line : text.split("\r\n|\n|\r")) {
      if (line.isEmpty() || line.charAt(0) == ':') {
        continue;
      }
      int colon = line.indexOf(':');
      String field = colon < 0 ? line : line.substring(0, colon);
      String value = colon < 0 ? "" : line.substring(colon + 1);
      if (value.startsWith(" ")) {
        value = value.substring(1);
      }
      switch (field) {
        case "id" -> id = value;
        case "event" -> type = value;
        case "data" -> {
          if (data == null) {
            data = new StringBuilder(value);
          } else {
            data.append('\n').append(value);
          }
        }
        default -> {
          // retry: and unknown fields are forwarded in raw, nothing to read.
        }
      }
    }
    sink.accept(new SseEvent(raw, id, type, data == null ? null : data.toString()));
  }
}
