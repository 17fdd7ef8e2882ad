package dev.toolgate.sidecar.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LastKnownResultsTest {

  private static final Instant AT = Instant.parse("2026-11-30T18:00:00Z");

  private static Buffer response(String state) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", "tg-1-a1")
        .put("result", new JsonObject().put("structuredContent", new JsonObject().put("state", state))
            .put("isError", false))
        .toBuffer();
  }

  @Test
  void givesBackTheResultOfTheMessageItKeptAndWhenItWasFresh() {
    LastKnownResults known = new LastKnownResults(10);

    known.remember("get_job#a", response("running"), AT);

    LastKnownResults.Known found = known.get("get_job#a");
    assertThat(found.at()).isEqualTo(AT);
    assertThat(found.result()).isEqualTo(new JsonObject()
        .put("structuredContent", new JsonObject().put("state", "running")).put("isError", false));
    assertThat(known.get("get_job#b")).isNull();
  }

  @Test
  void keepsItsOwnCopyOfTheMessageAndGivesAFreshResultEachTime() {
    LastKnownResults known = new LastKnownResults(10);
    Buffer message = response("running");
    known.remember("get_job#a", message, AT);

    message.setByte(message.toString().indexOf("running"), (byte) 'X');
    known.get("get_job#a").result().put("isError", true);

    assertThat(known.get("get_job#a").result().getBoolean("isError")).isFalse();
    assertThat(known.get("get_job#a").result().getJsonObject("structuredContent").getString("state"))
        .isEqualTo("running");
  }

  @Test
  void forgetsTheLeastRecentlyUsedBeyondItsCapacity() {
    LastKnownResults known = new LastKnownResults(2);
    known.remember("a", response("one"), AT);
    known.remember("b", response("two"), AT);
    known.get("a");

    known.remember("c", response("three"), AT);

    assertThat(known.get("a")).isNotNull();
    assertThat(known.get("b")).isNull();
    assertThat(known.get("c")).isNotNull();
  }
}
