package dev.toolgate.sidecar.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LastKnownResultsTest {

  private static final Instant AT = Instant.parse("2026-11-30T18:00:00Z");

  private static Buffer response(String state) {
    return new JsonObject()
        .put("jsonrpc", "2.0")
        .put("id", "tg-1-a1")
        .put(
            "result",
            new JsonObject()
                .put("structuredContent", new JsonObject().put("state", state))
                .put("isError", false))
        .toBuffer();
  }

  @Test
  void givesBackTheResultOfTheMessageItKeptAndWhenItWasFresh() {
    LastKnownResults known = new LastKnownResults(10, 1 << 20);

    known.remember("get_job#a", response("running"), AT);

    LastKnownResults.Known found = known.get("get_job#a");
    assertThat(found.at()).isEqualTo(AT);
    assertThat(found.result())
        .isEqualTo(
            new JsonObject()
                .put("structuredContent", new JsonObject().put("state", "running"))
                .put("isError", false));
    assertThat(known.get("get_job#b")).isNull();
  }

  @Test
  void keepsItsOwnCopyOfTheMessageAndGivesAFreshResultEachTime() {
    LastKnownResults known = new LastKnownResults(10, 1 << 20);
    Buffer message = response("running");
    known.remember("get_job#a", message, AT);

    message.setByte(message.toString().indexOf("running"), (byte) 'X');
    known.get("get_job#a").result().put("isError", true);

    assertThat(known.get("get_job#a").result().getBoolean("isError")).isFalse();
    assertThat(
            known.get("get_job#a").result().getJsonObject("structuredContent").getString("state"))
        .isEqualTo("running");
  }

  @Test
  void forgetsTheLeastRecentlyUsedBeyondItsCapacity() {
    LastKnownResults known = new LastKnownResults(2, 1 << 20);
    known.remember("a", response("one"), AT);
    known.remember("b", response("two"), AT);
    known.get("a");

    known.remember("c", response("three"), AT);

    assertThat(known.get("a")).isNotNull();
    assertThat(known.get("b")).isNull();
    assertThat(known.get("c")).isNotNull();
  }

  /** A response whose entry under a one-character key weighs {@code weight} bytes. */
  private static Buffer weighing(int weight) {
    int bytes = weight - (int) LastKnownResults.weight("k", 0);
    return response("x".repeat(bytes - response("").length()));
  }

  @Test
  void forgetsTheLeastRecentlyUsedBeyondItsBytes() {
    LastKnownResults known = new LastKnownResults(100, 8_000);
    known.remember("a", weighing(1_000), AT);
    known.remember("b", weighing(1_000), AT);
    known.get("a");
    for (int i = 0; i < 6; i++) {
      known.remember(String.valueOf(i), weighing(1_000), AT);
    }

    assertThat(known.bytes()).isEqualTo(8_000);
    known.remember("c", weighing(1_000), AT);

    assertThat(known.bytes()).isEqualTo(8_000);
    assertThat(known.get("b")).isNull();
    assertThat(known.get("a")).isNotNull();
    assertThat(known.get("c")).isNotNull();
  }

  @Test
  void keepsNoEntryOverAnEighthOfItsBytesAndForgetsTheOlderResultUnderItsKey() {
    LastKnownResults known = new LastKnownResults(100, 8_000);
    known.remember("a", weighing(1_000), AT);
    known.remember("b", weighing(1_000), AT);

    known.remember("a", weighing(1_001), AT.plusSeconds(1));

    assertThat(known.get("a")).isNull();
    assertThat(known.get("b")).isNotNull();
    assertThat(known.bytes()).isEqualTo(1_000);
  }

  @Test
  void countsAReplacedResultOnce() {
    LastKnownResults known = new LastKnownResults(100, 8_000);
    known.remember("a", weighing(1_000), AT);

    known.remember("a", weighing(900), AT.plusSeconds(1));

    assertThat(known.bytes()).isEqualTo(900);
    assertThat(known.get("a").at()).isEqualTo(AT.plusSeconds(1));
  }

  @Test
  void weighsAnEntryByItsMessageItsKeyAndAFixedOverhead() {
    assertThat(LastKnownResults.weight("demo/get_job/abc", 250))
        .isEqualTo(250 + 16 + LastKnownResults.ENTRY_OVERHEAD_BYTES);
  }

  @Test
  void refusesABoundThatIsNotPositiveNamingIt() {
    assertThatThrownBy(() -> new LastKnownResults(0, 8_000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("capacity must be at least 1, was 0");
    assertThatThrownBy(() -> new LastKnownResults(10, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxBytes must be at least 1, was -1");
  }
}
