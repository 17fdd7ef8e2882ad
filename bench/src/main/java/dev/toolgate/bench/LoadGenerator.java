package dev.toolgate.bench;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.internal.ContextInternal;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * MCP {@code tools/call} load over HTTP/1.1 keep-alive, in two shapes. Fixed rate (open loop): each
 * request is due when its {@link Arrivals} schedule says, whether or not earlier ones answered, and
 * its latency counts from when it was due, so a stall shows in the tail instead of slowing the load
 * (no coordinated omission). Saturation (closed loop): a fixed number of calls always in flight,
 * reporting calls/s.
 */
final class LoadGenerator implements AutoCloseable {

  /**
   * Each call of a fixed-rate run: when it was due ({@link System#nanoTime}) and how long it took
   * from then, in µs, or {@link #FAILED}; what lines a call up with something else the machine did
   * then.
   */
  record Calls(long[] dueNanos, long[] latencyMicros) {
    static final long FAILED = -1;
    static final Calls NONE = new Calls(new long[0], new long[0]);

    Calls {
      if (dueNanos.length != latencyMicros.length) {
        throw new IllegalArgumentException(
            "a call's due time and latency come in pairs, got "
                + dueNanos.length
                + " due times and "
                + latencyMicros.length
                + " latencies");
      }
    }

    int count() {
      return dueNanos.length;
    }

    /** Both runs' calls, these first. */
    Calls plus(Calls other) {
      long[] due = Arrays.copyOf(dueNanos, count() + other.count());
      long[] latency = Arrays.copyOf(latencyMicros, count() + other.count());
      System.arraycopy(other.dueNanos, 0, due, count(), other.count());
      System.arraycopy(other.latencyMicros, 0, latency, count(), other.count());
      return new Calls(due, latency);
    }
  }

  /** What one run measured; its calls one by one where it ran at a fixed rate. */
  record Result(Histogram latencyMicros, long completed, long failed, double seconds, Calls calls) {
    Result(Histogram latencyMicros, long completed, long failed, double seconds) {
      this(latencyMicros, completed, failed, seconds, Calls.NONE);
    }

    double throughput() {
      return completed / seconds;
    }

    /** Both results as one: calls and time added, latencies merged. */
    Result plus(Result other) {
      Histogram both = latencyMicros.copy();
      both.add(other.latencyMicros);
      return new Result(
          both,
          completed + other.completed,
          failed + other.failed,
          seconds + other.seconds,
          calls.plus(other.calls));
    }
  }

  private final Vertx vertx;
  private final HttpClient client;

  /** One request per MCP session; calls take them in turn. */
  private final RequestOptions[] requests;

  private final Buffer body;
  private final String target;
  private final SlowCalls slowCalls;

  /** Calls sent so far; only touched on the generator's context. */
  private long sent;

  /**
   * Fixed-rate runs taken so far, the seed of the next one's schedule; only touched by the
   * benchmark's thread.
   */
  private long fixedRateRuns;

  /**
   * Load on {@code url} for {@code target}, whose calls {@code slowCalls} records when they are
   * slow.
   */
  LoadGenerator(
      Vertx vertx,
      String url,
      List<String> sessions,
      String body,
      int connections,
      String target,
      SlowCalls slowCalls) {
    this.vertx = vertx;
    this.target = target;
    this.slowCalls = slowCalls;
    URI uri = URI.create(url);
    this.client =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true),
            new PoolOptions().setHttp1MaxSize(connections));
    this.requests =
        sessions.stream()
            .map(
                session ->
                    new RequestOptions()
                        .setMethod(HttpMethod.POST)
                        .setHost(uri.getHost())
                        .setPort(uri.getPort())
                        .setURI(uri.getRawPath())
                        .putHeader("Content-Type", "application/json")
                        .putHeader("Accept", "application/json, text/event-stream")
                        .putHeader("MCP-Protocol-Version", "2025-06-18")
                        .putHeader("Mcp-Session-Id", session))
            .toArray(RequestOptions[]::new);
    this.body = Buffer.buffer(body);
  }

  /** What follows a call's answer (or failure). */
  private interface Answered {
    void answered(long micros, boolean succeeded);
  }

  private void send(
      long dueNanos, Histogram histogram, AtomicLong completed, AtomicLong failed, Answered then) {
    client
        .request(requests[(int) (sent++ % requests.length)])
        .compose(req -> req.send(body))
        .compose(
            res ->
                res.body()
                    .map(
                        b -> res.statusCode() == 200 && !b.toString().contains("\"isError\":true")))
        .onComplete(
            ar -> {
              long micros = (System.nanoTime() - dueNanos) / 1_000;
              slowCalls.record(target, dueNanos, micros);
              boolean succeeded = ar.succeeded() && ar.result();
              if (succeeded) {
                histogram.recordValue(Math.max(1, micros));
                completed.incrementAndGet();
              } else {
                failed.incrementAndGet();
              }
              then.answered(micros, succeeded);
            });
  }

  /**
   * Open loop at {@code rate} calls/s for {@code seconds}, each call sent when {@code arrivals} has
   * it due (to the event loop timer's precision: microseconds on epoll, up to half a millisecond
   * late on NIO); waits for the stragglers. The n-th such run of every generator meets the same
   * schedule, so targets loaded in turn meet the same calls.
   */
  Result fixedRate(int rate, int seconds, Arrivals arrivals) throws Exception {
    FixedRateRun run = new FixedRateRun(arrivals.dueNanos(rate, seconds, fixedRateRuns++));
    vertx.runOnContext(v -> run.sendDue((ContextInternal) Vertx.currentContext(), 0));
    run.done.get(seconds + 60L, TimeUnit.SECONDS);
    long[] dueNanos = new long[run.due.length];
    Arrays.setAll(dueNanos, k -> run.start + run.due[k]);
    return new Result(
        run.histogram,
        run.completed.get(),
        run.failed.get(),
        (System.nanoTime() - run.start) / 1e9,
        new Calls(dueNanos, run.latencyMicros));
  }

  /** One fixed-rate run: its schedule, its counts, and the sending of each call when due. */
  private final class FixedRateRun {
    final long[] due;

    /**
     * Each call's latency once answered; written on the generator's context, read once {@link
     * #done}.
     */
    final long[] latencyMicros;

    final Histogram histogram = new Histogram(60_000_000L, 3);
    final AtomicLong completed = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final CompletableFuture<Void> done = new CompletableFuture<>();
    final long start = System.nanoTime();

    FixedRateRun(long[] due) {
      this.due = due;
      this.latencyMicros = new long[due.length];
    }

    /** Sends every call due by now from {@code next} on, then schedules itself for the next one. */
    void sendDue(ContextInternal context, int next) {
      long now = System.nanoTime() - start;
      int k = next;
      while (k < due.length && due[k] <= now) {
        int call = k;
        send(
            start + due[k],
            histogram,
            completed,
            failed,
            (micros, succeeded) -> {
              latencyMicros[call] = succeeded ? micros : Calls.FAILED;
              onAnswered();
            });
        k++;
      }
      if (k < due.length) {
        int following = k;
        // Netty's scheduler, not Vert.x's setTimer, which counts whole milliseconds.
        context
            .nettyEventLoop()
            .schedule(
                () -> context.dispatch(v -> sendDue(context, following)),
                due[k] - now,
                TimeUnit.NANOSECONDS);
      }
    }

    private void onAnswered() {
      if (completed.get() + failed.get() == due.length) {
        done.complete(null);
      }
    }
  }

  /** Closed loop: {@code inFlight} calls outstanding at all times for {@code seconds}. */
  Result saturate(int inFlight, int seconds) throws Exception {
    Histogram histogram = new Histogram(60_000_000L, 3);
    AtomicLong completed = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    long start = System.nanoTime();
    long end = start + seconds * 1_000_000_000L;
    AtomicLong outstanding = new AtomicLong(inFlight);
    CompletableFuture<Void> done = new CompletableFuture<>();
    vertx.runOnContext(
        v -> {
          for (int i = 0; i < inFlight; i++) {
            loop(end, histogram, completed, failed, outstanding, done);
          }
        });
    done.get(seconds + 60L, TimeUnit.SECONDS);
    return new Result(histogram, completed.get(), failed.get(), (System.nanoTime() - start) / 1e9);
  }

  private void loop(
      long end,
      Histogram histogram,
      AtomicLong completed,
      AtomicLong failed,
      AtomicLong outstanding,
      CompletableFuture<Void> done) {
    if (System.nanoTime() >= end) {
      if (outstanding.decrementAndGet() == 0) {
        done.complete(null);
      }
      return;
    }
    send(
        System.nanoTime(),
        histogram,
        completed,
        failed,
        (micros, succeeded) -> loop(end, histogram, completed, failed, outstanding, done));
  }

  @Override
  public void close() {
    client.close();
  }
}
