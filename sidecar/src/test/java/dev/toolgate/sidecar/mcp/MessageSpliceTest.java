package dev.toolgate.sidecar.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class MessageSpliceTest {

  private static final JsonObject META = new JsonObject().put("dev.toolgate/deadline-ms", 4000);

  private static String withId(String message, Object id) {
    Buffer out = MessageSplice.withId(Buffer.buffer(message), id);
    return out == null ? null : out.toString();
  }

  private static String withIdAndMeta(String request, Object id, JsonObject meta) {
    Buffer out = MessageSplice.withIdAndMeta(ParsedMessage.parse(Buffer.buffer(request)), id, meta);
    return out == null ? null : out.toString();
  }

  @Test
  void replacesTheIdOfAnAnswerAndKeepsEveryOtherByte() {
    assertThat(
            withId(
                "{\"jsonrpc\":\"2.0\",\"id\":\"tg-1a2b3c-7-a1\",\"result\":{\"content\":[]}}", 7))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[]}}");
  }

  @Test
  void keepsTheWhitespaceAndTheKeyOrderOfTheMessage() {
    assertThat(
            withId(
                "{ \"result\" : { \"id\" : \"tg-x-a1\" } ,\n \"id\" :\t\"tg-x-a1\" }", "agent-1"))
        .isEqualTo("{ \"result\" : { \"id\" : \"tg-x-a1\" } ,\n \"id\" :\t\"agent-1\" }");
  }

  @Test
  void writesTheNewIdAsJson() {
    assertThat(withId("{\"id\":12,\"result\":{}}", "say \"hi\"\n"))
        .isEqualTo("{\"id\":\"say \\\"hi\\\"\\n\",\"result\":{}}");
    assertThat(withId("{\"id\":\"a\\\"b\",\"result\":{}}", 1234567890123L))
        .isEqualTo("{\"id\":1234567890123,\"result\":{}}");
    assertThat(withId("{\"id\":-1.5e3}", null)).isEqualTo("{\"id\":null}");
  }

  @Test
  void writesAnAnswerAsOneEventOnOneDataLine() {
    Buffer event =
        MessageSplice.eventWithId(
            Buffer.buffer("{\"id\":\"tg-x-a1\", \"result\":{\"isError\":false}}"), 7);

    assertThat(event.toString()).isEqualTo("data: {\"id\":7, \"result\":{\"isError\":false}}\n\n");
  }

  @Test
  void declinesAnEventWhenALineBreakWouldSplitItsDataLine() {
    assertThat(MessageSplice.eventWithId(Buffer.buffer("{\"id\":1,\n\"result\":{}}"), 2)).isNull();
    assertThat(MessageSplice.eventWithId(Buffer.buffer("{\"id\":1,\r\"result\":{}}"), 2)).isNull();
    assertThat(MessageSplice.eventWithId(Buffer.buffer("{\"id\":1,\"result\":\"a\\nb\"}"), 2))
        .as("an escaped line break is two plain bytes")
        .isNotNull();
  }

  @Test
  void putsTheSidecarsMetaAtTheHeadOfTheParams() {
    String request =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{}}}";

    assertThat(withIdAndMeta(request, "tg-x-a1", META))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":\"tg-x-a1\","
                + "\"method\":\"tools/call\",\"params\":{\"_meta\":{\"dev.toolgate/deadline-ms\":4000},\"name\":\"t\",\"arguments\":{}}}");
  }

  @Test
  void putsTheMetaInEmptyParamsWithoutAComma() {
    assertThat(withIdAndMeta("{\"id\":1,\"method\":\"m\",\"params\":{ }}", "u", META))
        .isEqualTo(
            "{\"id\":\"u\",\"method\":\"m\",\"params\":{\"_meta\":{\"dev.toolgate/deadline-ms\":4000} }}");
  }

  @Test
  void makesBothEditsWhenTheIdComesAfterTheParams() {
    assertThat(
            withIdAndMeta("{\"params\":{\"name\":\"t\"},\"id\":\"abc\",\"method\":\"m\"}", 9, META))
        .isEqualTo(
            "{\"params\":{\"_meta\":{\"dev.toolgate/deadline-ms\":4000},\"name\":\"t\"},\"id\":9,\"method\":\"m\"}");
  }

  @Test
  void declinesAKeyGivenTwiceAnywhereInTheMessage() {
    assertThat(withId("{\"id\":1,\"id\":2,\"result\":{}}", 3)).isNull();
    assertThat(withId("{\"id\":1,\"result\":{\"isError\":false,\"isError\":true}}", 3)).isNull();
    assertThat(
            withIdAndMeta("{\"id\":1,\"params\":{\"name\":\"read\",\"name\":\"delete\"}}", 3, META))
        .isNull();
    assertThat(
            withIdAndMeta(
                "{\"id\":1,\"params\":{\"name\":\"t\",\"arguments\":{\"a\":1,\"a\":2}}}", 3, META))
        .isNull();
    assertThat(withIdAndMeta("{\"id\":1,\"params\":{},\"params\":{}}", 3, META)).isNull();
  }

  @Test
  void declinesParamsThatAlreadyHaveMetaOrAreNotAnObject() {
    assertThat(withIdAndMeta("{\"id\":1,\"params\":{\"_meta\":{\"progressToken\":1}}}", 3, META))
        .isNull();
    assertThat(withIdAndMeta("{\"id\":1,\"params\":[1,2]}", 3, META)).isNull();
    assertThat(withIdAndMeta("{\"id\":1,\"method\":\"m\"}", 3, META)).isNull();
  }

  @Test
  void declinesAnIdThatIsMissingOrNotAScalar() {
    assertThat(withId("{\"result\":{}}", 3)).isNull();
    assertThat(withId("{\"id\":{\"a\":1},\"result\":{}}", 3)).isNull();
    assertThat(withId("{\"id\":[1],\"result\":{}}", 3)).isNull();
  }

  @Test
  void declinesWhatIsNotOneJsonObject() {
    assertThat(withId("[{\"id\":1}]", 3)).isNull();
    assertThat(withId("{\"id\":1} {\"id\":2}", 3)).isNull();
    assertThat(withId("{\"id\":1,", 3)).isNull();
    assertThat(withId("", 3)).isNull();
    assertThat(withId("{\"id\":1,\"result\":{\"a\":01}}", 3)).isNull();
    for (String bad : List.of("1.", "-", "1e", "+1", ".5", "1.5e+", "tru", "nul", "NaN", "truex")) {
      assertThat(withId("{\"id\":1,\"result\":[0," + bad + "]}", 3)).as(bad).isNull();
    }
    assertThat(withId("{\"id\":1,\"result\":[0,-0,1.5,-12.25e+3,1E-2,true,false,null]}", 3))
        .isNotNull();
  }

  @Test
  void declinesAnEscapeJsonDoesNotHave() {
    for (String bad : List.of("\\q", "\\x41", "\\u12", "\\u12G4", "\\")) {
      assertThat(withId("{\"id\":1,\"result\":\"a" + bad + "\"}", 3)).as(bad).isNull();
    }
    assertThat(withId("{\"id\":1,\"result\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uABcd\"}", 3))
        .isNotNull();
  }

  @Test
  void declinesANumberLongerThanJacksonReads() {
    assertThat(withId("{\"id\":1,\"result\":" + "1".repeat(1001) + "}", 3)).isNull();
    assertThat(withId("{\"id\":1,\"result\":" + "1".repeat(1000) + "}", 3)).isNotNull();
  }

  @Test
  void declinesKeysThatCouldBeSpelledTwoWays() {
    assertThat(withId("{\"id\":1,\"result\":{\"a\":1,\"\\u0061\":2}}", 3)).isNull();
    assertThat(withId("{\"id\":1,\"result\":{\"café\":1}}", 3)).isNull();
    assertThat(withId("{\"\\u0069d\":1,\"result\":{}}", 3)).isNull();
  }

  @Test
  void declinesAMessageThatIsNotUtf8() {
    byte[] utf16 = "{\"id\":1,\"result\":{}}".getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
    byte[] bom = "\uFEFF{\"id\":1,\"result\":{}}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    assertThat(MessageSplice.withId(Buffer.buffer(utf16), 3)).isNull();
    assertThat(MessageSplice.withId(Buffer.buffer(bom), 3)).isNull();
  }

  @Test
  void declinesNestingDeeperThanItScans() {
    String deep = "[".repeat(MessageScanner.MAX_DEPTH) + "]".repeat(MessageScanner.MAX_DEPTH);
    String shallow =
        "[".repeat(MessageScanner.MAX_DEPTH - 2) + "]".repeat(MessageScanner.MAX_DEPTH - 2);

    assertThat(withId("{\"id\":1,\"result\":" + deep + "}", 3)).isNull();
    assertThat(withId("{\"id\":1,\"result\":" + shallow + "}", 3)).isNotNull();
  }

  @Test
  void keepsAKeyUsedAgainInAnotherObject() {
    assertThat(withId("{\"id\":1,\"result\":{\"id\":2,\"list\":[{\"id\":3},{\"id\":4}]}}", 9))
        .isEqualTo("{\"id\":9,\"result\":{\"id\":2,\"list\":[{\"id\":3},{\"id\":4}]}}");
  }

  @Test
  void findsTheEndOfALongStringWhereverItsQuoteOrEscapeFalls() {
    for (int at = 0; at < 24; at++) {
      String plain = "x".repeat(at);
      assertThat(withId("{\"result\":\"" + plain + "\",\"id\":1}", 2))
          .as("quote at %d", at)
          .isEqualTo("{\"result\":\"" + plain + "\",\"id\":2}");
      assertThat(withId("{\"result\":\"" + plain + "\\\"}\",\"id\":1}", 2))
          .as("escape at %d", at)
          .isEqualTo("{\"result\":\"" + plain + "\\\"}\",\"id\":2}");
      assertThat(withId("{\"result\":\"" + plain + "\u0001\",\"id\":1}", 2))
          .as("control at %d", at)
          .isNull();
      assertThat(withId("{\"result\":\"" + plain + "é日\",\"id\":1}", 2))
          .as("non-ASCII at %d", at)
          .isEqualTo("{\"result\":\"" + plain + "é日\",\"id\":2}");
    }
  }

  /**
   * Whatever the message, a splice means what re-encoding it would: the same maps, its id and _meta
   * set.
   */
  @Property(tries = 400)
  void meansWhatReEncodingWouldWheneverItSplices(@ForAll long seed) {
    Random random = new Random(seed);
    Map<String, Object> message = RandomJson.object(random, 0);
    message.put(
        "id", random.nextBoolean() ? (Object) random.nextLong() : RandomJson.string(random));
    Map<String, Object> params = RandomJson.object(random, 1);
    params.remove("_meta");
    message.put("params", params);
    List<String> keys = new ArrayList<>(message.keySet());
    java.util.Collections.shuffle(keys, random);
    Map<String, Object> shuffled = new LinkedHashMap<>();
    keys.forEach(k -> shuffled.put(k, message.get(k)));
    String text = RandomJson.write(shuffled, random);
    Object newId = random.nextBoolean() ? (Object) random.nextInt() : RandomJson.string(random);

    String answer = withId(text, newId);
    String request = withIdAndMeta(text, newId, META);
    Buffer event = MessageSplice.eventWithId(Buffer.buffer(text), newId);

    JsonObject expected = new JsonObject(text).put("id", newId);
    if (!plainKeys(shuffled)) {
      // A key with an escape or a non-ASCII character: declined, re-encoded by the caller.
      assertThat(answer).as(text).isNull();
      assertThat(request).as(text).isNull();
      assertThat(event).as(text).isNull();
      return;
    }
    assertThat(answer).as(text).isNotNull();
    assertThat(new JsonObject(answer)).isEqualTo(expected);
    if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
      assertThat(event).as(text).isNull();
    } else {
      List<SseEvent> events = new ArrayList<>();
      new SseParser(events::add).feed(event);
      assertThat(events)
          .as(text)
          .singleElement()
          .satisfies(e -> assertThat(new JsonObject(e.data())).isEqualTo(expected));
    }
    assertThat(request).as(text).isNotNull();
    expected.getJsonObject("params").put("_meta", META);
    assertThat(new JsonObject(request)).isEqualTo(expected);
  }

  /** Whether every key, at any depth, is printable ASCII that JSON writes without an escape. */
  private static boolean plainKeys(Object value) {
    if (value instanceof Map<?, ?> map) {
      return map.entrySet().stream()
          .allMatch(
              e ->
                  ((String) e.getKey())
                          .chars()
                          .allMatch(c -> c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
                      && plainKeys(e.getValue()));
    }
    if (value instanceof List<?> list) {
      return list.stream().allMatch(MessageSpliceTest::plainKeys);
    }
    return true;
  }
}
