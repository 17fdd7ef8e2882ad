package dev.toolgate.sidecar.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseParserTest {

  private final List<SseEvent> events = new ArrayList<>();
  private final SseParser parser = new SseParser(events::add);

  @Test
  void readsIdsEventTypesAndMultiLineData() {
    parser.feed(Buffer.buffer("id: 7\nevent: message\ndata: {\"a\":\ndata: 1}\n\n"));

    assertThat(events)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.id()).isEqualTo("7");
              assertThat(e.type()).isEqualTo("message");
              assertThat(e.dataText()).isEqualTo("{\"a\":\n1}");
              assertThat(e.isMessage()).isTrue();
            });
  }

  @Test
  void emitsEachEventAsSoonAsItsBlankLineArrivesEvenWhenSplitAcrossChunks() {
    parser.feed(Buffer.buffer("data: one\n"));
    assertThat(events).isEmpty();
    parser.feed(Buffer.buffer("\nda"));
    assertThat(events).extracting(SseEvent::dataText).containsExactly("one");
    parser.feed(Buffer.buffer("ta: two\n\n"));
    assertThat(events).extracting(SseEvent::dataText).containsExactly("one", "two");
  }

  @Test
  void keepsTheRawBytesOfCommentsPrimingEventsAndRetryFields() {
    String stream = "id: s1:0\nretry: 500\ndata: \n\n: keep-alive\n\n";

    parser.feed(Buffer.buffer(stream));

    assertThat(events).hasSize(2);
    assertThat(events.get(0).raw().toString()).isEqualTo("id: s1:0\nretry: 500\ndata: \n\n");
    assertThat(events.get(0).isMessage()).isFalse();
    assertThat(events.get(1).raw().toString()).isEqualTo(": keep-alive\n\n");
    assertThat(events.get(1).data()).isNull();
  }

  @Test
  void acceptsCrLfAndLoneCrLineEndings() {
    parser.feed(Buffer.buffer("data: crlf\r\n\r\n"));
    parser.feed(Buffer.buffer("data: cr\r\r"));
    parser.feed(Buffer.buffer("data: next\n\n"));

    assertThat(events).extracting(SseEvent::dataText).containsExactly("crlf", "cr", "next");
    assertThat(events.get(0).raw().toString()).isEqualTo("data: crlf\r\n\r\n");
  }

  @Test
  void readsFieldsWithoutTheOptionalSpaceAndSkipsCommentLinesAndUnknownFields() {
    parser.feed(
        Buffer.buffer("id:3\n: note\nevent:message\nretry: 100\nflavour: x\ndata:{}\ndata\n\n"));

    assertThat(events)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.id()).isEqualTo("3");
              assertThat(e.type()).isEqualTo("message");
              assertThat(e.dataText())
                  .as("a field without a colon has an empty value")
                  .isEqualTo("{}\n");
            });
  }

  @Test
  void findsTextInTheDataBytesIncludingUtf8() {
    parser.feed(Buffer.buffer("data: {\"id\":\"tg-1-a1\",\"x\":\"日本\"}\n\n: keep-alive\n\n"));

    assertThat(events.get(0).dataContains("tg-1-a1")).isTrue();
    assertThat(events.get(0).dataContains("日本\"}")).isTrue();
    assertThat(events.get(0).dataContains("tg-1-a2")).isFalse();
    assertThat(events.get(0).dataContains("{\"id\":\"tg-1-a1\",\"x\":\"日本\"} and more")).isFalse();
    assertThat(events.get(1).dataContains("keep")).as("a comment has no data").isFalse();
  }

  @Test
  void decodesUtf8InValuesAndKeepsTheirOtherBytes() {
    parser.feed(Buffer.buffer("id: é:1\ndata: {\"a\":\"日本 : x\"}\r\n\r\n"));

    assertThat(events)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.id()).isEqualTo("é:1");
              assertThat(e.dataText()).isEqualTo("{\"a\":\"日本 : x\"}");
            });
  }

  @Test
  void holdsBackAnIncompleteEvent() {
    parser.feed(Buffer.buffer("data: cut off"));

    assertThat(events).isEmpty();
    assertThat(parser.bufferedBytes()).isEqualTo(13);
  }

  @Test
  void formatsANewEventThatParsesBackToTheSameFields() {
    parser.feed(SseEvent.format("9", "message", "line1\nline2"));

    assertThat(events)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.id()).isEqualTo("9");
              assertThat(e.dataText()).isEqualTo("line1\nline2");
            });
  }

  @Test
  void anEventThatNeverEndsStopsTheParserOnceItPassesTheLimitAndIsNeverHeldPastIt() {
    int[] overflows = new int[1];
    SseParser bounded = new SseParser(1024, events::add, () -> overflows[0]++);
    bounded.feed(Buffer.buffer("data: small\n\n"));
    String endless = "data: " + "x".repeat(300);

    for (int i = 0; i < 100; i++) {
      bounded.feed(Buffer.buffer(endless));
    }

    assertThat(events).extracting(SseEvent::dataText).containsExactly("small");
    assertThat(overflows[0]).isEqualTo(1);
    assertThat(bounded.overflowed()).isTrue();
    assertThat(bounded.heldBytes()).isZero();
  }

  @Test
  void aCompleteEventOverTheLimitInOneChunkIsDroppedButTheEventsBeforeItAreKept() {
    int[] overflows = new int[1];
    SseParser bounded = new SseParser(64, events::add, () -> overflows[0]++);

    bounded.feed(Buffer.buffer("data: before\n\ndata: " + "y".repeat(100) + "\n\ndata: after\n\n"));

    assertThat(events).extracting(SseEvent::dataText).containsExactly("before");
    assertThat(overflows[0]).isEqualTo(1);
  }

  @Test
  void anEventOfExactlyTheLimitPasses() {
    String event = "data: " + "z".repeat(50) + "\n\n";
    SseParser bounded = new SseParser(event.length(), events::add, () -> {});

    bounded.feed(Buffer.buffer(event));

    assertThat(events).hasSize(1);
    assertThat(bounded.overflowed()).isFalse();
  }
}
