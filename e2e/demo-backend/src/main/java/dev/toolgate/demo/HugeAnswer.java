package dev.toolgate.demo;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.Json;

/**
 * An answer of a given size, written as the client reads it (never held whole): a tool result whose
 * text is padding, as JSON without a length or as one server-sent event. An answer of 0 bytes never
 * ends: it writes until the client goes away.
 */
final class HugeAnswer {

  private static final int CHUNK_BYTES = 64 * 1024;
  private static final Buffer PADDING = Buffer.buffer("x".repeat(CHUNK_BYTES));

  private final HttpServerResponse res;
  private final Buffer tail;
  private long left;
  private final boolean endless;

  private HugeAnswer(HttpServerResponse res, Buffer tail, long padding, boolean endless) {
    this.res = res;
    this.tail = tail;
    this.left = padding;
    this.endless = endless;
  }

  /** Starts sending the answer to {@code id}; {@code bytes} 0 for one that never ends. */
  static void send(HttpServerResponse res, Object id, boolean sse, long bytes) {
    String head =
        (sse ? "event: message\ndata: " : "")
            + "{\"jsonrpc\":\"2.0\",\"id\":"
            + Json.encode(id)
            + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"";
    Buffer tail = Buffer.buffer("\"}]}}" + (sse ? "\n\n" : ""));
    res.setChunked(true).putHeader("Content-Type", sse ? "text/event-stream" : "application/json");
    res.write(head);
    long padding = Math.max(0, bytes - head.length() - tail.length());
    new HugeAnswer(res, tail, padding, bytes == 0).next();
  }

  private void next() {
    while (!res.closed() && !res.ended()) {
      if (!endless && left == 0) {
        res.end(tail);
        return;
      }
      int n = endless ? CHUNK_BYTES : (int) Math.min(CHUNK_BYTES, left);
      left -= n;
      res.write(n == CHUNK_BYTES ? PADDING : PADDING.slice(0, n));
      if (res.writeQueueFull()) {
        res.drainHandler(v -> next());
        return;
      }
    }
  }
}
