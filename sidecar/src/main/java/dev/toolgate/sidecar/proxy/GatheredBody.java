package dev.toolgate.sidecar.proxy;

import io.vertx.core.buffer.Buffer;

/**
 * A body read whole as its chunks arrive, up to a limit: an agent's request, an upstream's answer.
 * A body that comes as one chunk (an MCP message of a few KiB nearly always does) is kept as that
 * chunk, which Vert.x copied for its handler: no second copy. More chunks are gathered in one
 * buffer, sized from the declared {@code Content-Length} when there is one. Cost: O(body) for a
 * body of several chunks, O(1) for one.
 */
final class GatheredBody {

  private final int limit;
  private final long declaredLength;
  private Buffer body;
  private boolean gathering;
  private boolean exceeded;

  /** {@code declaredLength}: the request's {@code Content-Length}, at most {@code limit}, or -1. */
  GatheredBody(int limit, long declaredLength) {
    this.limit = limit;
    this.declaredLength = declaredLength;
  }

  /**
   * Adds the next chunk. False once the body is over the limit: what it held is dropped, and so is
   * every chunk after.
   */
  boolean add(Buffer chunk) {
    if (exceeded) {
      return false;
    }
    int held = body == null ? 0 : body.length();
    if ((long) held + chunk.length() > limit) {
      exceeded = true;
      body = null;
      return false;
    }
    if (body == null) {
      body = chunk;
      return true;
    }
    if (!gathering) {
      Buffer all = Buffer.buffer((int) Math.max(declaredLength, held + chunk.length()));
      all.appendBuffer(body);
      body = all;
      gathering = true;
    }
    body.appendBuffer(chunk);
    return true;
  }

  boolean exceeded() {
    return exceeded;
  }

  /** The body so far (empty when no chunk came). */
  Buffer body() {
    return body == null ? Buffer.buffer() : body;
  }
}
