package dev.toolgate.sidecar.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.DatabindCodec;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StreamingJsonFactoryTest {

  @Test
  void vertxEncodesAndDecodesWithTheStreamingCodecThoughDatabindIsPresent() {
    assertThat(Json.CODEC)
        .isSameAs(new StreamingJsonFactory().codec())
        .isNotInstanceOf(DatabindCodec.class);
  }

  @Test
  void aJsonRpcMessageSurvivesARoundTrip() {
    JsonObject message =
        new JsonObject()
            .put("jsonrpc", "2.0")
            .put("id", 7L)
            .put("method", "tools/call")
            .put(
                "params",
                new JsonObject()
                    .put("name", "restart")
                    .put(
                        "arguments",
                        new JsonObject()
                            .put("n", 1.5)
                            .put("ok", true)
                            .put("none", (Object) null)
                            .put("é", "ünïcode")
                            .put(
                                "list",
                                new JsonArray()
                                    .add(1)
                                    .add("two")
                                    .add(new JsonObject().put("k", "v")))))
            .put("at", Instant.parse("2026-11-30T08:00:00Z"));

    Buffer encoded = message.toBuffer();
    JsonObject decoded = new JsonObject(encoded);

    assertThat(decoded.getJsonObject("params").getJsonObject("arguments").getString("é"))
        .isEqualTo("ünïcode");
    assertThat(
            decoded
                .getJsonObject("params")
                .getJsonObject("arguments")
                .getJsonArray("list")
                .getJsonObject(2)
                .getString("k"))
        .isEqualTo("v");
    assertThat(decoded.getString("at")).isEqualTo("2026-11-30T08:00:00Z");
    assertThat(decoded.getLong("id")).isEqualTo(7L);
    assertThat(decoded.getJsonObject("params").getJsonObject("arguments").containsKey("none"))
        .isTrue();
  }
}
