package dev.toolgate.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.evidence.EventLines;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The evidence writer's encoding of one batch of attempt events into its chunk: as the sidecar does
 * ({@link EventLines}, one generator a batch) and as it did before (a generator created and closed
 * for each event). A batch is what the writer finds queued when it wakes: about 10 events at 1,000
 * calls/s (it lingers 10 ms), up to 256 at saturation. The events are the full policy's, as the
 * load benchmark makes them. Run: see bench/README.md.
 */
public class EventLinesBench extends JmhSettings {

  private static final JsonFactory JSON =
      JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

  @Param({"1", "16", "256"})
  public int batch;

  private final List<AttemptEvent> events = new ArrayList<>();
  private final ByteArrayOutputStream chunk = new ByteArrayOutputStream(64 * 1024);

  @Setup
  public void events() {
    for (int i = 0; i < batch; i++) {
      events.add(
          new AttemptEvent(
              Instant.parse("2026-12-03T06:00:00.123Z").plusMillis(i),
              "4f1c2a9e-7b3d-4e8a-9c61-0d2f5b8a7e3" + (i % 10),
              null,
              "intent-7d2e9c41b0a35f68",
              "d573599a-f3ff-4429-8129-637d0411d41d",
              "get_deployment_job",
              "deploy",
              1,
              "tg-4f1c2a9e-1",
              "success",
              200,
              1.237 + i / 1000.0,
              null,
              null,
              3,
              "9c0e41f2",
              "enforce",
              "forwarded",
              null,
              null,
              null,
              null,
              "closed",
              null,
              null));
    }
  }

  @Benchmark
  public int oneGeneratorABatch() throws IOException {
    chunk.reset();
    EventLines.write(events, chunk);
    return chunk.size();
  }

  @Benchmark
  public int oneGeneratorAnEvent() throws IOException {
    chunk.reset();
    for (AttemptEvent event : events) {
      try (JsonGenerator json = JSON.createGenerator(chunk)) {
        event.writeJson(json);
      }
      chunk.write('\n');
    }
    return chunk.size();
  }
}
