package dev.toolgate.sidecar.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ParsedMessageTest {

  private static final JsonObject META = new JsonObject().put("dev.toolgate/deadline-ms", 4000);

  private static ParsedMessage parse(String text) {
    return ParsedMessage.parse(Buffer.buffer(text));
  }

  private static String requestWithId(String request, Object id) {
    Buffer out = MessageSplice.withIdAndMeta(parse(request), id, META);
    return out == null ? null : out.toString();
  }

  private static String withId(String message, Object id) {
    Buffer out = MessageSplice.withId(parse(message), id);
    return out == null ? null : out.toString();
  }

  /**
   * Whatever the message, the parse builds what Vert.x's decoder builds: the same maps, lists and
   * number types.
   */
  @Property(tries = 400)
  void buildsWhatVertxsDecoderBuilds(@ForAll long seed) {
    Random random = new Random(seed);
    Object value =
        random.nextInt(4) == 0 ? RandomJson.value(random, 0) : RandomJson.object(random, 0);
    String text = RandomJson.write(value, random);

    assertSameTree(parse(text).value(), Json.decodeValue(Buffer.buffer(text)), text);
  }

  @Test
  void readsNumbersAsVertxDoes() {
    JsonArray numbers =
        (JsonArray) parse("[1, -0, 2147483648, 9223372036854775808, 1.5, -2e-3, 1E400]").value();

    assertSameTree(
        numbers,
        Json.decodeValue("[1, -0, 2147483648, 9223372036854775808, 1.5, -2e-3, 1E400]"),
        "");
    assertThat(numbers.getValue(0)).isEqualTo(1);
    assertThat(numbers.getValue(2)).isEqualTo(2147483648L);
    assertThat(numbers.getValue(3)).isEqualTo(new BigInteger("9223372036854775808"));
    assertThat(numbers.getValue(4)).isEqualTo(1.5);
  }

  /**
   * Whatever the message, a request spliced from its parse's layout means what re-encoding it
   * would, and a message's id is replaced in exactly the bytes the answers' scan finds.
   */
  @Property(tries = 400)
  void splicesWhereTheScanSplicesAndMeansWhatReEncodingWould(@ForAll long seed) {
    Random random = new Random(seed);
    Map<String, Object> message = RandomJson.object(random, 0);
    message.put(
        "id", random.nextBoolean() ? (Object) random.nextLong() : RandomJson.string(random));
    Map<String, Object> params = RandomJson.object(random, 1);
    params.remove("_meta");
    message.put("params", params);
    List<String> keys = new ArrayList<>(message.keySet());
    Collections.shuffle(keys, random);
    Map<String, Object> shuffled = new LinkedHashMap<>();
    keys.forEach(k -> shuffled.put(k, message.get(k)));
    String text = RandomJson.write(shuffled, random);
    Object newId = random.nextBoolean() ? (Object) random.nextInt() : RandomJson.string(random);

    Buffer scanned = MessageSplice.withId(Buffer.buffer(text), newId);
    String request = requestWithId(text, newId);

    assertThat(withId(text, newId)).as(text).isEqualTo(scanned == null ? null : scanned.toString());
    if (scanned == null) {
      assertThat(request).as(text).isNull();
      return;
    }
    JsonObject expected = new JsonObject(text).put("id", newId);
    expected.getJsonObject("params").put("_meta", META);
    assertThat(request).as(text).isNotNull();
    assertThat(new JsonObject(request)).isEqualTo(expected);
  }

  @Test
  void splicesTheRequestTheLoadBenchmarkSends() {
    String request =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"get_deployment_job\",\"arguments\":{\"job_id\":\"j1\",\"note\":\"a \\\"quoted\\\" note\"}}}";

    assertThat(requestWithId(request, "tg-x-a1"))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":\"tg-x-a1\","
                + "\"method\":\"tools/call\",\"params\":{\"_meta\":{\"dev.toolgate/deadline-ms\":4000},"
                + "\"name\":\"get_deployment_job\",\"arguments\":{\"job_id\":\"j1\",\"note\":\"a \\\"quoted\\\" note\"}}}");
  }

  @Test
  void replacesAnIdWhateverItsSpelling() {
    assertThat(withId("{\"id\" : \"a\\\"b\\u0063\" , \"result\":{}}", 7))
        .isEqualTo("{\"id\" : 7 , \"result\":{}}");
    assertThat(withId("{\"id\":-12.5e-3}", "x")).isEqualTo("{\"id\":\"x\"}");
    assertThat(withId("{\"id\":null,\"result\":1}", 2)).isEqualTo("{\"id\":2,\"result\":1}");
    assertThat(withId(" \n{\"result\":[1,2],\"id\":123456789012345678901234567890}\n", 2))
        .isEqualTo(" \n{\"result\":[1,2],\"id\":2}\n");
  }

  @Test
  void declinesAKeyGivenTwiceAnywhereAndKeepsTheLastAsVertxDoes() {
    ParsedMessage twice = parse("{\"id\":1,\"params\":{\"name\":\"read\",\"name\":\"delete\"}}");

    assertThat(MessageSplice.withIdAndMeta(twice, 3, META)).isNull();
    assertThat(((JsonObject) twice.value()).getJsonObject("params").getString("name"))
        .isEqualTo("delete");
    assertThat(
            requestWithId("{\"id\":1,\"params\":{\"arguments\":{\"l\":[{\"a\":1,\"a\":2}]}}}", 3))
        .isNull();
    assertThat(requestWithId("{\"id\":1,\"id\":2,\"params\":{}}", 3)).isNull();
  }

  @Test
  void declinesKeysThatCouldBeSpelledTwoWays() {
    assertThat(requestWithId("{\"\\u0069d\":1,\"params\":{}}", 3)).isNull();
    assertThat(requestWithId("{\"id\":1,\"params\":{\"a\\\"b\":1}}", 3)).isNull();
    assertThat(requestWithId("{\"id\":1,\"params\":{\"\\\\\":1}}", 3)).isNull();
    assertThat(requestWithId("{\"id\":1,\"params\":{\"café\":1}}", 3)).isNull();
    assertThat(requestWithId("{\"id\":1,\"params\":{\"a\":\"back\\\\slash\"}}", 3))
        .as("a backslash in a value, not in a key")
        .isNotNull();
  }

  @Test
  void declinesParamsThatHaveMetaOrAreNotAnObjectAndAnIdThatIsNotAScalar() {
    assertThat(requestWithId("{\"id\":1,\"params\":{\"_meta\":{}}}", 3)).isNull();
    assertThat(requestWithId("{\"id\":1,\"params\":[]}", 3)).isNull();
    assertThat(requestWithId("{\"id\":1}", 3)).isNull();
    assertThat(withId("{\"id\":1,\"params\":{\"_meta\":{}}}", 3))
        .as("the id alone can be")
        .isNotNull();
    assertThat(withId("{\"id\":{\"a\":1},\"params\":{}}", 3)).isNull();
    assertThat(withId("{\"id\":[1],\"params\":{}}", 3)).isNull();
    assertThat(withId("{\"params\":{}}", 3)).isNull();
  }

  @Test
  void declinesAMessageNotInUtf8OrWithAByteOrderMark() {
    byte[] utf16 = "{\"id\":1,\"params\":{}}".getBytes(StandardCharsets.UTF_16LE);
    byte[] bom = "\uFEFF{\"id\":1,\"params\":{}}".getBytes(StandardCharsets.UTF_8);

    ParsedMessage sixteen = ParsedMessage.parse(Buffer.buffer(utf16));
    assertThat(sixteen.value()).isEqualTo(Json.decodeValue(Buffer.buffer(utf16)));
    assertThat(MessageSplice.withId(sixteen, 3)).isNull();
    assertThat(MessageSplice.withId(ParsedMessage.parse(Buffer.buffer(bom)), 3)).isNull();
  }

  @Test
  void neverSplicesAMessageTheSidecarWrote() {
    ParsedMessage written =
        ParsedMessage.written(new JsonObject().put("id", 1).put("params", new JsonObject()));

    assertThat(written.bytes()).isNull();
    assertThat(MessageSplice.withId(written, 3)).isNull();
    assertThat(MessageSplice.withIdAndMeta(written, 3, META)).isNull();
  }

  @Test
  void readsCommentsAsVertxDoesAndPassesThemOnReEncoded() {
    ParsedMessage commented = parse("{\"id\":1, /* why */ \"params\":{\"name\":\"t\"}} // done");

    assertThat(commented.value())
        .isEqualTo(new JsonObject().put("id", 1).put("params", new JsonObject().put("name", "t")));
    assertThat(MessageSplice.withIdAndMeta(commented, 3, META)).isNull();
  }

  @Test
  void throwsWhatVertxThrowsForWhatIsNotJson() {
    for (String bad :
        List.of(
            "",
            "{",
            "{\"id\":1} {\"id\":2}",
            "[1,]",
            "{\"a\":01}",
            "{\"a\":\"\u0001\"}",
            "{\"a\":" + "1".repeat(1001) + "}",
            "{\"a\":\"\\q\"}",
            "nul")) {
      assertThatThrownBy(() -> Json.decodeValue(Buffer.buffer(bad)))
          .as(bad)
          .isInstanceOf(DecodeException.class);
      assertThatThrownBy(() -> parse(bad)).as(bad).isInstanceOf(DecodeException.class);
    }
  }

  @Test
  void splicesNestingAndKeysBeyondWhatTheAnswersScanHolds() {
    String deep =
        "[".repeat(MessageScanner.MAX_DEPTH + 10) + "]".repeat(MessageScanner.MAX_DEPTH + 10);
    StringBuilder many = new StringBuilder("{");
    for (int i = 0; i <= MessageScanner.MAX_KEYS; i++) {
      many.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(i);
    }
    many.append('}');

    assertThat(requestWithId("{\"id\":1,\"params\":{\"arguments\":" + deep + "}}", 3)).isNotNull();
    assertThat(requestWithId("{\"id\":1,\"params\":{\"arguments\":" + many + "}}", 3)).isNotNull();
  }

  /** Equal values of equal classes, at every depth (JsonObject's equals would take 1 for 1L). */
  private static void assertSameTree(Object actual, Object expected, String text) {
    Object a =
        actual instanceof JsonObject o
            ? o.getMap()
            : actual instanceof JsonArray l ? l.getList() : actual;
    Object e =
        expected instanceof JsonObject o
            ? o.getMap()
            : expected instanceof JsonArray l ? l.getList() : expected;
    if (e == null) {
      assertThat(a).as(text).isNull();
      return;
    }
    assertThat(a)
        .as(text)
        .isInstanceOf(e instanceof Map ? Map.class : e instanceof List ? List.class : e.getClass());
    if (e instanceof Map<?, ?> map) {
      Map<?, ?> got = (Map<?, ?>) a;
      assertThat(new ArrayList<Object>(got.keySet()))
          .as(text)
          .isEqualTo(new ArrayList<Object>(map.keySet()));
      map.forEach((k, v) -> assertSameTree(got.get(k), v, text));
    } else if (e instanceof List<?> list) {
      List<?> got = (List<?>) a;
      assertThat(got).as(text).hasSameSizeAs(list);
      for (int i = 0; i < list.size(); i++) {
        assertSameTree(got.get(i), list.get(i), text);
      }
    } else {
      assertThat(a).as(text).isEqualTo(e);
    }
  }
}
