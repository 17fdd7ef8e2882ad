package dev.toolgate.sidecar.evidence;

import static dev.toolgate.sidecar.evidence.AttemptEventExamples.forwarded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class JsonLinesSinkTest {

  private static List<JsonObject> lines(ByteArrayOutputStream out) {
    return Arrays.stream(out.toString(StandardCharsets.UTF_8).split("\n"))
        .filter(l -> !l.isEmpty())
        .map(JsonObject::new)
        .toList();
  }

  @Test
  void writesOneJsonLinePerEventInTheOrderGiven() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EventSink sink = EventSink.jsonLines(out);
    sink.accept(forwarded("c1"));
    sink.audit(new JsonObject().put("event", "quota_block").put("sessionKey", "s1"));
    sink.accept(forwarded("c2"));
    sink.close();

    List<JsonObject> lines = lines(out);
    assertThat(lines)
        .extracting(l -> l.getString("event"))
        .containsExactly("tool_attempt", "quota_block", "tool_attempt");
    assertThat(lines.get(0).getString("correlationId")).isEqualTo("c1");
    assertThat(lines.get(0).getString("ts")).isEqualTo("2026-11-30T08:00:00Z");
    assertThat(lines.get(0).getInteger("attempt")).isEqualTo(1);
    assertThat(lines.get(0).getInteger("httpStatus")).isEqualTo(200);
    assertThat(lines.get(0).getDouble("durationMs")).isEqualTo(1.5);
    assertThat(lines.get(0).getLong("policyRevision")).isEqualTo(3);
    assertThat(lines.get(0).getString("circuitState")).isEqualTo("closed");
    assertThat(lines.get(0).fieldNames())
        .as("absent fields are left out")
        .doesNotContain("conversationId", "reason");
    assertThat(lines.get(2).getString("correlationId")).isEqualTo("c2");
    assertThat(sink.dropped()).isZero();
  }

  @Test
  void dropsAndCountsEventsWhileTheOutputStallsInsteadOfBlockingTheCaller_thenRecordsTheGap()
      throws Exception {
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    OutputStream stalled =
        new OutputStream() {
          @Override
          public void write(int b) {
            written.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            writing.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              throw new IOException(e);
            }
            written.write(b, off, len);
          }
        };
    EventSink sink = EventSink.jsonLines(stalled, 2);
    sink.accept(forwarded("c1"));
    assertThat(writing.await(10, TimeUnit.SECONDS)).isTrue();

    // The writer is stuck on c1: two events fit in the queue, the next three are dropped at once.
    for (int i = 2; i <= 6; i++) {
      sink.accept(forwarded("c" + i));
    }
    assertThat(sink.dropped()).isEqualTo(3);

    release.countDown();
    List<JsonObject> lines =
        await().atMost(Duration.ofSeconds(10)).until(() -> lines(written), l -> l.size() == 4);
    sink.close();
    assertThat(lines)
        .extracting(l -> l.getString("correlationId", l.getString("event")))
        .containsExactly("c1", "events_dropped", "c2", "c3");
    assertThat(lines.get(1).getLong("count")).isEqualTo(3);
    assertThat(lines.get(1).getLong("total")).isEqualTo(3);
  }

  @Test
  void countsTheEventsOfAChunkTheStreamRefuses() {
    OutputStream broken =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            throw new IOException("broken pipe");
          }
        };
    EventSink sink = EventSink.jsonLines(broken);
    sink.accept(forwarded("c1"));
    sink.accept(forwarded("c2"));
    await().atMost(Duration.ofSeconds(10)).until(() -> sink.dropped() == 2);
    sink.close();
  }

  @Test
  void dropsEventsGivenAfterClose() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EventSink sink = EventSink.jsonLines(out);
    sink.close();
    sink.accept(forwarded("late"));
    assertThat(sink.dropped()).isEqualTo(1);
    assertThat(out.size()).isZero();
  }

  @Test
  void refusesAQueueWithNoRoom() {
    assertThatThrownBy(() -> EventSink.jsonLines(new ByteArrayOutputStream(), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 0");
  }
}
