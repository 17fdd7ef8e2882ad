package dev.toolgate.sidecar.mcp;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Splits a byte stream of server-sent events into events, as the bytes arrive, without waiting for
 * the stream to end. Comment-only blocks, priming events (an id with empty data) and {@code retry:}
 * fields come out as events too, so a relay can forward every byte in order.
 *
 * <p>Cost: each byte is copied into the parser's array once, scanned there twice (for the event's
 * end, then for its fields' lines) and copied once more into the event's raw bytes; a single {@code
 * data:} line is a view of those, not a copy, and only ids and event types are decoded. Lines end
 * with CRLF, LF or CR (the SSE grammar); an event ends at an empty line.
 *
 * <p>Bounded: an event (complete or still coming) larger than {@code maxEventBytes} is never held
 * whole; the parser calls {@code onOverflow} once, drops what it held and ignores the rest of the
 * stream.
 */
public final class SseParser {

  private static final byte[] DATA = {'d', 'a', 't', 'a'};
  private static final byte[] ID = {'i', 'd'};
  private static final byte[] EVENT = {'e', 'v', 'e', 'n', 't'};

  /** Room for a typical event; a stream's larger events grow it. */
  private static final int INITIAL_BYTES = 2048;

  /** An array grown past this by a large event is not kept once the event is out. */
  private static final int MAX_KEPT_BYTES = 64 * 1024;

  private final Consumer<SseEvent> sink;
  private final int maxEventBytes;
  private final Runnable onOverflow;
  private boolean overflowed;
  private boolean eventTooLarge;
  private byte[] pending = new byte[0];
  private int length;
  private int scanned;
  private boolean lineStart = true;
  private boolean crPending;
  private boolean eventEndPending;

  /** A parser of events of any size: for streams whose source the sidecar trusts (tests). */
  public SseParser(Consumer<SseEvent> sink) {
    this(Integer.MAX_VALUE, sink, () -> {});
  }

  public SseParser(int maxEventBytes, Consumer<SseEvent> sink, Runnable onOverflow) {
    if (maxEventBytes < 1) {
      throw new IllegalArgumentException("maxEventBytes must be >= 1, was " + maxEventBytes);
    }
    this.maxEventBytes = maxEventBytes;
    this.sink = sink;
    this.onOverflow = onOverflow;
  }

  /** Whether an event over the limit stopped the parser. */
  public boolean overflowed() {
    return overflowed;
  }

  /** The bytes the parser holds now (its array, not only the part in use). */
  public int heldBytes() {
    return pending.length;
  }

  /** Feeds bytes; calls the sink once per complete event. */
  public void feed(Buffer chunk) {
    if (overflowed) {
      return;
    }
    int n = chunk.length();
    if (length + n > pending.length) {
      pending =
          Arrays.copyOf(pending, Math.max(length + n, Math.max(INITIAL_BYTES, 2 * pending.length)));
    }
    chunk.getBytes(0, n, pending, length);
    length += n;
    int eventStart = 0;
    for (int i = scanned; i < length && !eventTooLarge; i++) {
      byte b = pending[i];
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
    if (eventTooLarge || length - eventStart > maxEventBytes) {
      overflow();
      return;
    }
    if (eventStart > 0) {
      length -= eventStart;
      if (length == 0 && pending.length > MAX_KEPT_BYTES) {
        pending = new byte[0];
      } else {
        System.arraycopy(pending, eventStart, pending, 0, length);
      }
    }
    scanned = length;
  }

  /** Bytes received after the last complete event: what a closed stream cut off. */
  public int bufferedBytes() {
    return length;
  }

  private void overflow() {
    if (!overflowed) {
      overflowed = true;
      onOverflow.run();
    }
    pending = new byte[0];
    length = 0;
    scanned = 0;
  }

  private void emit(int from, int to) {
    if (to - from > maxEventBytes) {
      eventTooLarge = true;
      return;
    }
    Buffer raw = Buffer.buffer(to - from).appendBytes(pending, from, to - from);
    String id = null;
    String type = null;
    Buffer data = null;
    boolean joined = false;
    int line = from;
    while (line < to) {
      int end = line;
      while (end < to && pending[end] != '\n' && pending[end] != '\r') {
        end++;
      }
      if (end > line && pending[line] != ':') {
        int colon = indexOf(line, end, (byte) ':');
        int nameEnd = colon < 0 ? end : colon;
        int value = colon < 0 ? end : colon + 1;
        if (value < end && pending[value] == ' ') {
          value++;
        }
        if (is(line, nameEnd, DATA)) {
          if (data == null) {
            data = raw.slice(value - from, end - from);
          } else {
            if (!joined) {
              data = Buffer.buffer(data.length() + end - value + 64).appendBuffer(data);
              joined = true;
            }
            data.appendByte((byte) '\n').appendBytes(pending, value, end - value);
          }
        } else if (is(line, nameEnd, ID)) {
          id = new String(pending, value, end - value, StandardCharsets.UTF_8);
        } else if (is(line, nameEnd, EVENT)) {
          type = new String(pending, value, end - value, StandardCharsets.UTF_8);
        }
        // retry: and unknown fields are forwarded in raw, nothing to read.
      }
      // Past the line's end: CRLF counts as one.
      line = end + (end + 1 < to && pending[end] == '\r' && pending[end + 1] == '\n' ? 2 : 1);
    }
    sink.accept(new SseEvent(raw, id, type, data));
  }

  private int indexOf(int from, int to, byte b) {
    for (int i = from; i < to; i++) {
      if (pending[i] == b) {
        return i;
      }
    }
    return -1;
  }

  private boolean is(int from, int to, byte[] name) {
    return to - from == name.length && Arrays.equals(pending, from, to, name, 0, name.length);
  }
}
