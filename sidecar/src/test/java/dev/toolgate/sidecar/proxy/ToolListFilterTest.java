package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.sidecar.mcp.SseEvent;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ToolListFilterTest {

  private final ToolListFilter filter = new ToolListFilter(Set.of("a")::contains);

  private static JsonObject listing(String... names) {
    JsonArray tools = new JsonArray();
    for (String n : names) {
      tools.add(new JsonObject().put("name", n));
    }
    return new JsonObject()
        .put("jsonrpc", "2.0")
        .put("id", 1)
        .put("result", new JsonObject().put("tools", tools));
  }

  @Test
  void leavesOutOfAJsonAnswerTheToolsThePolicyDoesNotName() {
    Buffer out = filter.body(listing("a", "b", "c").toBuffer());

    assertThat(new JsonObject(out).getJsonObject("result").getJsonArray("tools"))
        .containsExactly(new JsonObject().put("name", "a"));
  }

  @Test
  void filtersEachMessageOfABatchAndPassesAnythingElseUnchanged() {
    Buffer batch = new JsonArray().add(listing("b")).add(listing("a")).toBuffer();
    Buffer notAListing = Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
    Buffer notJson = Buffer.buffer("not json");

    assertThat(new JsonArray(filter.body(batch)).getJsonObject(0).getJsonObject("result"))
        .isEqualTo(new JsonObject().put("tools", new JsonArray()));
    assertThat(filter.body(notAListing)).isSameAs(notAListing);
    assertThat(filter.body(notJson)).isSameAs(notJson);
  }

  @Test
  void keepsAnEventsIdAndTypeWhenItFiltersItsMessage() {
    Buffer data = listing("a", "b").toBuffer();
    SseEvent event = new SseEvent(Buffer.buffer("raw"), "ev-7", "message", data);

    String out = filter.event(event).toString();

    assertThat(out).startsWith("id: ev-7\nevent: message\ndata: ").doesNotContain("\"b\"");
  }
}
