package dev.toolgate.sidecar.evidence;

import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JSON lines written by one thread of its own. Callers (event loops) only offer the event to a
 * bounded queue: O(1), no encoding, no system call. The writer takes what is queued (up to {@value
 * #BATCH} items), encodes it into one chunk ({@link EventLines}) and writes the chunk with one
 * call, then lets events gather for {@value #LINGER_MS} ms: a busy sidecar makes one wake-up and
 * one write per batch instead of one per event, and an event reaches stdout at most that much
 * later.
 *
 * <p>When the stream's reader stalls (a container runtime's log pipe holds 64 KiB), the queue fills
 * and further events are dropped and counted instead of stalling tool calls; the next chunk written
 * starts with an {@code events_dropped} record carrying the count, so the evidence itself says
 * where it has a gap. A chunk the stream refuses counts its events as dropped.
 */
final class JsonLinesSink implements EventSink {

  private static final Logger LOG = LoggerFactory.getLogger(JsonLinesSink.class);
  private static final int BATCH = 256;
  private static final long LINGER_MS = 10;
  private static final long CLOSE_WAIT_MS = 2_000;

  private final BlockingQueue<Object> queue;
  private final OutputStream out;
  private final Thread writer;
  private final AtomicLong dropped = new AtomicLong();
  private volatile boolean closed;
  // Writer thread only:
  private final ByteArrayOutputStream chunk = new ByteArrayOutputStream(64 * 1024);
  private long reported;
  private boolean failing;

  JsonLinesSink(OutputStream out, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException(
          "event queue capacity must be at least 1, was " + capacity);
    }
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.out = out;
    this.writer = new Thread(this::run, "toolgate-events");
    writer.setDaemon(true);
    writer.start();
  }

  @Override
  public void accept(AttemptEvent event) {
    enqueue(event);
  }

  @Override
  public void audit(JsonObject record) {
    // Encoded now: the record is the caller's and may change after this returns.
    enqueue(record.encode());
  }

  private void enqueue(Object item) {
    if (closed || !queue.offer(item)) {
      dropped.incrementAndGet();
    }
  }

  @Override
  public long dropped() {
    return dropped.get();
  }

  @Override
  public void close() {
    closed = true;
    writer.interrupt();
    try {
      writer.join(CLOSE_WAIT_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    List<Object> batch = new ArrayList<>(BATCH);
    while (!closed || !queue.isEmpty()) {
      try {
        batch.add(queue.take());
      } catch (InterruptedException e) {
        continue;
      }
      queue.drainTo(batch, BATCH - 1);
      try {
        writeChunk(batch);
      } catch (RuntimeException e) {
        // The writer must outlive a bad batch: a dead writer would lose every later event.
        dropped.addAndGet(batch.size());
        chunk.reset();
        LOG.warn("cannot encode attempt events; counted in toolgate_events_dropped_total", e);
      }
      boolean full = batch.size() == BATCH;
      batch.clear();
      if (!full && !closed) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(LINGER_MS));
      }
    }
  }

  private void writeChunk(List<Object> batch) {
    long lost = dropped.get();
    boolean reporting = lost > reported;
    try {
      if (reporting) {
        EventLines.write(
            List.of(
                new JsonObject()
                    .put("ts", IsoInstant.format(Instant.now()))
                    .put("event", "events_dropped")
                    .put("count", lost - reported)
                    .put("total", lost)
                    .encode()),
            chunk);
      }
      EventLines.write(batch, chunk);
    } catch (IOException e) {
      // Writing into memory does not fail; a value Jackson refuses would be a bug, not an outage.
      throw new UncheckedIOException(e);
    }
    try {
      chunk.writeTo(out);
      out.flush();
      failing = false;
      if (reporting) {
        reported = lost;
      }
    } catch (IOException e) {
      dropped.addAndGet(batch.size());
      if (!failing) {
        failing = true;
        LOG.warn(
            "cannot write attempt events ({}); counted in toolgate_events_dropped_total",
            e.toString());
      }
    } finally {
      chunk.reset();
    }
  }
}
