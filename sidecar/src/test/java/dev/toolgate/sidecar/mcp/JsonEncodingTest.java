package dev.toolgate.sidecar.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.EncodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonEncodingTest {

  private static JsonObject message() {
    Map<String, Object> shared = new LinkedHashMap<>();
    shared.put("plain", "a map, not a JsonObject");
    return new JsonObject()
        .put("jsonrpc", "2.0")
        .put("id", 42L)
        .put("method", "tools/call")
        .put(
            "params",
            new JsonObject()
                .put("name", "get_deployment_job")
                .put(
                    "arguments",
                    new JsonObject()
                        .put(
                            "text",
                            "quotes \" backslash \\ newline \n tab \t control \u0001 é 日本 😀")
                        .put("int", Integer.MIN_VALUE)
                        .put("long", Long.MAX_VALUE)
                        .put("double", 0.1 + 0.2)
                        .put("float", 1.5f)
                        .put("decimal", new BigDecimal("12345678901234567890.123456789"))
                        .put("yes", true)
                        .put("nothing", (Object) null)
                        .put("when", Instant.parse("2026-11-30T18:02:00.123456Z"))
                        .put("raw", new byte[] {0, 1, 2, (byte) 0xff})
                        .put(
                            "list",
                            new JsonArray()
                                .add(1)
                                .add("two")
                                .add(new JsonObject())
                                .add(new JsonArray()))
                        .put("javaList", List.of("x", 2))
                        .put("javaMap", shared))
                .put("_meta", new JsonObject().put("dev.toolgate/deadline-ms", 30_000L)));
  }

  @Test
  void encodesTheSameBytesAsVertxForEveryKindOfValue() {
    JsonObject message = message();

    assertThat(JsonEncoding.buffer(message, 0).getBytes()).isEqualTo(message.toBuffer().getBytes());
  }

  @Test
  void growsPastItsSizeHintWithoutLosingBytes() {
    JsonObject large = new JsonObject().put("arguments", "x".repeat(100_000));

    Buffer encoded = JsonEncoding.buffer(large, 16);

    assertThat(encoded.length()).isEqualTo(large.toBuffer().length());
    assertThat(new JsonObject(encoded)).isEqualTo(large);
  }

  @Test
  void encodesAnEmptyObject() {
    assertThat(JsonEncoding.buffer(new JsonObject(), 0).toString()).isEqualTo("{}");
  }

  @Test
  void refusesAValueJsonCannotHoldAsVertxDoes() {
    JsonObject message = new JsonObject().put("thread", Thread.currentThread());

    assertThatThrownBy(message::toBuffer).isInstanceOf(EncodeException.class);
    assertThatThrownBy(() -> JsonEncoding.buffer(message, 0))
        .isInstanceOf(EncodeException.class)
        .hasMessageContaining("Thread");
  }
}
