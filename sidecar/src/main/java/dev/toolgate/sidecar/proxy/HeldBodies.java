package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.config.RuntimeOptions;
import dev.toolgate.sidecar.mcp.SseEvent;
import dev.toolgate.sidecar.mcp.SseParser;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The bodies the sidecar holds whole, bounded: an agent's request while its call runs, an
 * upstream's JSON answer while it is read and relayed, the server-sent event a stream is in the
 * middle of. One answer or event is at most {@code runtime.maxAnswerBytes}: past it the exchange is
 * reset and the reader fails with {@link AnswerTooLarge}. All of them together are at most {@code
 * runtime.maxHeldBytes}, give or take one chunk per body: past it a new agent request is refused
 * (its reader learns it from {@link Hold#add}) and an upstream answer is paused until another body
 * is let go. Requests may take half of it at most: a request is held until its call's answer has
 * been read, so answers always keep the other half and requests cannot hold up their own answers.
 * An answer paused for {@link #ROOM_WAIT_MS} in all is let go itself ({@link Overloaded}), so
 * bodies that each wait for the others' room (events that never end) cannot hold up the rest until
 * their calls time out. Limits are those of the configuration in force when a body starts.
 */
final class HeldBodies {

  /** An answer or event over {@code runtime.maxAnswerBytes}. */
  static final class AnswerTooLarge extends RuntimeException {
    private final int limit;

    AnswerTooLarge(int limit) {
      super(
          "the upstream's answer is over " + limit + " bytes (runtime.maxAnswerBytes)",
          null,
          false,
          false);
      this.limit = limit;
    }

    int limit() {
      return limit;
    }
  }

  /** An answer the sidecar let go after waiting {@link #ROOM_WAIT_MS} for room. */
  static final class Overloaded extends RuntimeException {
    Overloaded() {
      super(
          "the sidecar held as many bodies as it may (runtime.maxHeldBytes) for "
              + ROOM_WAIT_MS
              + " ms",
          null,
          false,
          false);
    }
  }

  /** How long a paused answer waits for room before it is let go. */
  static final long ROOM_WAIT_MS = 2_000;

  private final Vertx vertx;
  private final Supplier<RuntimeOptions> runtime;
  private final AtomicLong held = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private final Queue<Waiter> waiting = new ConcurrentLinkedQueue<>();

  private record Waiter(Context context, Runnable resume) {}

  HeldBodies(Vertx vertx, Supplier<RuntimeOptions> runtime) {
    this.vertx = vertx;
    this.runtime = runtime;
  }

  /** Bytes held now, all bodies together. */
  long heldBytes() {
    return held.get();
  }

  int maxAnswerBytes() {
    return runtime.get().maxAnswerBytes();
  }

  /** One body's share of the bytes held; given back once by {@link #close}. */
  final class Hold implements AutoCloseable {
    private final long limit = runtime.get().maxHeldBytes();
    private final boolean request;
    private long bytes;
    private boolean closed;
    private long pausedNanos;
    private long pausedSince;

    private Hold(boolean request) {
      this.request = request;
    }

    /**
     * Counts {@code n} more bytes; false when, with them, the sidecar holds more than allowed (for
     * a request: or requests hold more than half of it).
     */
    boolean add(long n) {
      if (closed) {
        return true;
      }
      bytes += n;
      boolean fits = held.addAndGet(n) <= limit;
      return request ? requests.addAndGet(n) <= limit / 2 && fits : fits;
    }

    /** Counts the body as {@code total} bytes now; false as {@link #add} is. */
    boolean resize(long total) {
      return add(total - bytes);
    }

    /**
     * Runs {@code resume} on the caller's context once the sidecar holds less than allowed, or
     * {@code giveUp} there once this body has waited {@link #ROOM_WAIT_MS} in all: a body resumed
     * and paused again does not start its wait afresh.
     */
    void whenRoom(Runnable resume, Runnable giveUp) {
      long left = ROOM_WAIT_MS - pausedNanos / 1_000_000;
      if (left <= 0) {
        giveUp.run();
        return;
      }
      pausedSince = System.nanoTime();
      boolean[] settled = new boolean[1];
      long[] timer = new long[1];
      Waiter waiter =
          new Waiter(
              Vertx.currentContext(),
              () -> {
                if (!settled[0]) {
                  settled[0] = true;
                  vertx.cancelTimer(timer[0]);
                  pausedNanos += System.nanoTime() - pausedSince;
                  resume.run();
                }
              });
      timer[0] =
          vertx.setTimer(
              left,
              t -> {
                if (!settled[0] && waiting.remove(waiter)) {
                  settled[0] = true;
                  giveUp.run();
                }
              });
      waiting.add(waiter);
      wake(limit);
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      held.addAndGet(-bytes);
      if (request) {
        requests.addAndGet(-bytes);
      }
      bytes = 0;
      wake(limit);
    }
  }

  /** A hold for an upstream answer or event. */
  Hold hold() {
    return new Hold(false);
  }

  /** A hold for an agent's request, kept until its call has ended. */
  Hold requestHold() {
    return new Hold(true);
  }

  private void wake(long limit) {
    Waiter next;
    while (held.get() < limit && (next = waiting.poll()) != null) {
      Runnable resume = next.resume();
      if (next.context() == null) {
        resume.run();
      } else {
        next.context().runOnContext(v -> resume.run());
      }
    }
  }

  /**
   * Reads an upstream response's body whole: fails with {@link AnswerTooLarge} (the exchange reset)
   * past {@code runtime.maxAnswerBytes}, and pauses while the sidecar holds too much.
   */
  Future<Buffer> read(HttpClientResponse response) {
    int max = maxAnswerBytes();
    long declared = declaredLength(response);
    if (declared > max) {
      response.request().reset();
      return Future.failedFuture(new AnswerTooLarge(max));
    }
    Promise<Buffer> promise = Promise.promise();
    Hold hold = hold();
    GatheredBody body = new GatheredBody(max, declared);
    response.handler(
        chunk -> {
          if (promise.future().isComplete()) {
            return;
          }
          if (!body.add(chunk)) {
            hold.close();
            // Failed first: the reset fails the response too, with a less telling error.
            promise.fail(new AnswerTooLarge(max));
            response.request().reset();
            return;
          }
          if (!hold.add(chunk.length())) {
            response.pause();
            hold.whenRoom(
                response::resume,
                () -> {
                  hold.close();
                  promise.tryFail(new Overloaded());
                  response.request().reset();
                });
          }
        });
    response.exceptionHandler(
        e -> {
          hold.close();
          promise.tryFail(e);
        });
    response.endHandler(
        v -> {
          // Its handlers run now, on this context: the body is let go once they have used it.
          promise.tryComplete(body.body());
          hold.close();
        });
    return promise.future();
  }

  /**
   * Reads and drops an upstream response's body; past {@code runtime.maxAnswerBytes} the exchange
   * is reset. Completes when the body ended, fails when it did not.
   */
  Future<Void> discard(HttpClientResponse response) {
    int max = maxAnswerBytes();
    Promise<Void> promise = Promise.promise();
    long[] seen = new long[1];
    response.handler(
        chunk -> {
          seen[0] += chunk.length();
          if (seen[0] > max && !promise.future().isComplete()) {
            promise.fail(new AnswerTooLarge(max));
            response.request().reset();
          }
        });
    response.exceptionHandler(promise::tryFail);
    response.endHandler(v -> promise.tryComplete());
    return promise.future();
  }

  /**
   * A parser for an upstream's event stream whose events are at most {@code
   * runtime.maxAnswerBytes}: one over it lets {@code hold} go, resets the exchange and runs {@code
   * onOverflow}.
   */
  SseParser parser(
      HttpClientResponse from, Hold hold, Consumer<SseEvent> sink, Runnable onOverflow) {
    return new SseParser(
        maxAnswerBytes(),
        sink,
        () -> {
          hold.close();
          onOverflow.run();
          from.request().reset();
        });
  }

  /**
   * Counts what {@code parser} holds after a chunk; pauses {@code from} while too much is held, and
   * past {@link #ROOM_WAIT_MS} lets it go: {@code giveUp} runs, then the exchange is reset.
   */
  static void account(SseParser parser, Hold hold, HttpClientResponse from, Runnable giveUp) {
    if (parser.overflowed()) {
      return;
    }
    if (!hold.resize(parser.heldBytes())) {
      from.pause();
      hold.whenRoom(
          from::resume,
          () -> {
            hold.close();
            giveUp.run();
            from.request().reset();
          });
    }
  }

  private static long declaredLength(HttpClientResponse response) {
    String length = response.getHeader(HttpHeaders.CONTENT_LENGTH);
    return length == null ? -1 : ProxyHandler.parseLong(length);
  }
}
