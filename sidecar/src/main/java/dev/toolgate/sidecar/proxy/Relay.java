package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.sidecar.mcp.SseEvent;
import dev.toolgate.sidecar.mcp.SseParser;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Copies an upstream response to the agent as it arrives, with backpressure: when the agent reads
 * slower than the upstream writes, the upstream is paused.
 */
final class Relay {

  private Relay() {}

  /** Sets the agent's status and headers from the upstream response. */
  static void head(HttpClientResponse from, HttpServerResponse to) {
    to.setStatusCode(from.statusCode());
    if (from.statusMessage() != null) {
      to.setStatusMessage(from.statusMessage());
    }
    Hop.copy(from.headers(), to.headers());
  }

  static boolean isEventStream(HttpClientResponse response) {
    String type = response.getHeader(HttpHeaders.CONTENT_TYPE);
    return type != null && type.regionMatches(true, 0, "text/event-stream", 0, 17);
  }

  /**
   * Streams the body byte for byte. When the upstream breaks off mid-body the agent's connection is
   * reset too, so it sees a truncated response rather than a clean end.
   */
  static void bytes(HttpClientResponse from, HttpServerResponse to) {
    String length = from.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (length != null) {
      to.putHeader(HttpHeaders.CONTENT_LENGTH, length);
    } else if (hasBody(from.statusCode())) {
      to.setChunked(true);
    }
    from.pipeTo(to).onFailure(e -> to.reset());
  }

  /** How an upstream's event stream ended. */
  enum End {
    /** The upstream ended it. */
    CLEAN(ResultClass.UPSTREAM_CLOSED),
    /** It broke off: reset, closed mid-body. */
    BROKEN(ResultClass.UPSTREAM_CLOSED),
    /** One of its events was over {@code runtime.maxAnswerBytes}: the sidecar reset it. */
    EVENT_TOO_LARGE(ResultClass.UPSTREAM_ANSWER_TOO_LARGE),
    /** The sidecar held too much to read on ({@code runtime.maxHeldBytes}) and reset it. */
    OVERLOADED(ResultClass.SIDECAR_OVERLOADED);

    private final ResultClass unanswered;

    End(ResultClass unanswered) {
      this.unanswered = unanswered;
    }

    /** What a call whose answer had not come when the stream ended this way came to. */
    ResultClass unanswered() {
      return unanswered;
    }
  }

  /**
   * Streams server-sent events one by one, each through {@code transform} (which returns the bytes
   * to send, or the event's own raw bytes to forward it unchanged). {@code onEnd} learns how the
   * stream ended, once.
   */
  static void events(
      HttpClientResponse from,
      HttpServerResponse to,
      HeldBodies bodies,
      Function<SseEvent, Buffer> transform,
      Handler<End> onEnd) {
    to.setChunked(true);
    read(
        from,
        bodies,
        event -> {
          Buffer out = transform.apply(event);
          if (out != null && !to.closed() && !to.ended()) {
            to.write(out);
            if (to.writeQueueFull()) {
              from.pause();
              to.drainHandler(v -> from.resume());
            }
          }
        },
        onEnd);
  }

  /**
   * Reads server-sent events one by one into {@code sink}, the event in the middle of arriving
   * counted in {@code bodies}; {@code onEnd} learns how the stream ended, once.
   */
  static void read(
      HttpClientResponse from, HeldBodies bodies, Consumer<SseEvent> sink, Handler<End> onEnd) {
    boolean[] done = new boolean[1];
    Handler<End> once =
        end -> {
          if (!done[0]) {
            done[0] = true;
            onEnd.handle(end);
          }
        };
    HeldBodies.Hold hold = bodies.hold();
    SseParser parser = bodies.parser(from, hold, sink, () -> once.handle(End.EVENT_TOO_LARGE));
    from.handler(
        chunk -> {
          parser.feed(chunk);
          HeldBodies.account(parser, hold, from, () -> once.handle(End.OVERLOADED));
        });
    from.endHandler(
        v -> {
          hold.close();
          once.handle(End.CLEAN);
        });
    from.exceptionHandler(
        e -> {
          hold.close();
          once.handle(End.BROKEN);
        });
  }

  private static boolean hasBody(int status) {
    return status != 204 && status != 304 && !(status >= 100 && status < 200);
  }
}
