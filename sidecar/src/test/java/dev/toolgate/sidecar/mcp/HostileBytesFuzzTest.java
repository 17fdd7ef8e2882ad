package dev.toolgate.sidecar.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Whatever bytes an upstream or an agent sends, the message scanner, the splice, the parse and the
 * SSE parser throw nothing unexpected, and where the scanner reads an answer without a parse it
 * reads what Jackson reads. The inputs are JSON-RPC answers with random keys, whitespace and text,
 * then broken by a few random edits (cuts, stray quotes, brackets and escapes, bytes that are not
 * UTF-8), and byte streams of SSE fields cut into random chunks.
 */
class HostileBytesFuzzTest {

  private static final String[] TOKENS = {
    "\"", "\\", "{", "}", "[", "]", ",", ":", "\"id\":", "\"result\":", "\"error\":",
    "\"isError\":", "\"code\":", "true", "null", "-", "1e5", "0.5", "\\u0000", "é", " ", "\n",
    "\"jsonrpc\":\"2.0\"", "tg-x-a1"
  };

  @Property(tries = 3000)
  void theScannerNeverThrowsAndWhereItReadsAnAnswerJacksonReadsTheSame(@ForAll long seed) {
    Random random = new Random(seed);
    byte[] bytes = mutate(answer(random), random);
    Buffer buffer = Buffer.buffer(bytes);

    ScannedAnswer[] scanned = new ScannedAnswer[1];
    assertThatCode(() -> scanned[0] = ScannedAnswer.of(buffer)).doesNotThrowAnyException();
    if (scanned[0] == null) {
      return;
    }
    Object parsed;
    try {
      parsed = Json.decodeValue(buffer);
    } catch (DecodeException e) {
      throw new AssertionError(
          "the scanner read an answer in bytes Jackson refuses: " + printable(bytes), e);
    }
    assertThat(parsed).as(printable(bytes)).isInstanceOf(JsonObject.class);
    JsonObject message = (JsonObject) parsed;
    assertThat(JsonRpc.isResponse(message)).as(printable(bytes)).isTrue();
    assertThat(scanned[0].kind()).as(printable(bytes)).isEqualTo(kindAsParsed(message));
    if (scanned[0].kind() == ScannedAnswer.Kind.RPC_ERROR) {
      // As the parsed answer is classified: an error without a numeric code counts as code 0.
      Object code = message.getJsonObject("error").getValue("code");
      assertThat(scanned[0].errorCode())
          .as(printable(bytes))
          .isEqualTo(code instanceof Number n ? n.intValue() : 0);
    }
    Object id = message.getValue("id");
    assertThat(scanned[0].idIs("tg-x-a1")).as(printable(bytes)).isEqualTo("tg-x-a1".equals(id));
  }

  /**
   * The splice of bytes is given only messages a parse accepted (its scan checks their structure,
   * not their UTF-8): on those it writes the message under the new id; on any bytes it throws
   * nothing.
   */
  @Property(tries = 3000)
  void theSpliceNeverThrowsAndWhatItWritesParsesAsTheMessageUnderTheNewId(@ForAll long seed) {
    Random random = new Random(seed);
    byte[] bytes = mutate(answer(random), random);
    Buffer buffer = Buffer.buffer(bytes);
    Object newId = random.nextBoolean() ? (Object) random.nextInt() : "agent-" + random.nextInt();

    Buffer[] spliced = new Buffer[2];
    assertThatCode(
            () -> {
              spliced[0] = MessageSplice.withId(buffer, newId);
              spliced[1] = MessageSplice.eventWithId(buffer, newId);
            })
        .doesNotThrowAnyException();
    if (spliced[0] == null) {
      return;
    }
    JsonObject original;
    try {
      original = new JsonObject(buffer);
    } catch (DecodeException | ClassCastException notAMessage) {
      return;
    }
    assertThat(new JsonObject(spliced[0]))
        .as(printable(bytes))
        .isEqualTo(original.copy().put("id", newId));
  }

  @Property(tries = 3000)
  void theParseThrowsNothingButADecodeException(@ForAll long seed) {
    Random random = new Random(seed);
    byte[] bytes = mutate(answer(random), random);

    try {
      ParsedMessage.parse(Buffer.buffer(bytes));
    } catch (DecodeException expected) {
      // Not JSON: the caller answers a parse error.
    }
  }

  @Property(tries = 2000)
  void theSseParserAccountsForEveryByteOrStopsOnceAtItsLimit(@ForAll long seed) {
    Random random = new Random(seed);
    String[] fields = {
      "data: ",
      "data:",
      "id: ",
      "event: message",
      ": c",
      "retry: 5",
      "x",
      "{\"a\":1}",
      "\n",
      "\r",
      "\r\n",
      "\n\n",
      "é",
      "\u0000"
    };
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    for (int i = random.nextInt(200); i > 0; i--) {
      stream.writeBytes(fields[random.nextInt(fields.length)].getBytes(StandardCharsets.UTF_8));
    }
    byte[] bytes = stream.toByteArray();
    int max = 1 + random.nextInt(512);
    List<SseEvent> events = new ArrayList<>();
    int[] overflows = new int[1];
    SseParser parser = new SseParser(max, events::add, () -> overflows[0]++);

    int at = 0;
    while (at < bytes.length) {
      int n = Math.min(bytes.length - at, 1 + random.nextInt(64));
      parser.feed(Buffer.buffer().appendBytes(bytes, at, n));
      at += n;
    }

    assertThat(overflows[0]).isLessThanOrEqualTo(1);
    assertThat(events).allSatisfy(e -> assertThat(e.raw().length()).isLessThanOrEqualTo(max));
    if (overflows[0] == 0) {
      int relayed = events.stream().mapToInt(e -> e.raw().length()).sum();
      assertThat(relayed + parser.bufferedBytes()).isEqualTo(bytes.length);
      assertThat(parser.bufferedBytes()).isLessThanOrEqualTo(max);
    } else {
      assertThat(parser.heldBytes()).isZero();
    }
  }

  /** A JSON-RPC answer: a result (maybe a tool error) or an error, among random keys. */
  private static byte[] answer(Random random) {
    Map<String, Object> message = RandomJson.object(random, 1);
    message.put("jsonrpc", "2.0");
    message.put("id", random.nextInt(4) == 0 ? random.nextInt(100) : "tg-x-a1");
    if (random.nextBoolean()) {
      Map<String, Object> result = RandomJson.object(random, 2);
      if (random.nextBoolean()) {
        result.put("isError", random.nextBoolean());
      }
      message.put("result", result);
    } else {
      message.put(
          "error",
          Map.of("code", random.nextInt(4) == 0 ? random.nextInt() : -32602, "message", "m"));
    }
    return RandomJson.write(message, random).getBytes(StandardCharsets.UTF_8);
  }

  /** Up to three random edits, or none one time in five. */
  private static byte[] mutate(byte[] bytes, Random random) {
    if (random.nextInt(5) == 0) {
      return bytes;
    }
    byte[] out = bytes;
    for (int edits = 1 + random.nextInt(3); edits > 0 && out.length > 0; edits--) {
      int at = random.nextInt(out.length);
      ByteArrayOutputStream s = new ByteArrayOutputStream();
      switch (random.nextInt(5)) {
        case 0 -> { // cut a range
          int end = Math.min(out.length, at + 1 + random.nextInt(8));
          s.write(out, 0, at);
          s.write(out, end, out.length - end);
        }
        case 1 -> { // insert a token
          s.write(out, 0, at);
          s.writeBytes(TOKENS[random.nextInt(TOKENS.length)].getBytes(StandardCharsets.UTF_8));
          s.write(out, at, out.length - at);
        }
        case 2 -> { // a byte that is not UTF-8, or a control character
          s.write(out, 0, at);
          s.write(random.nextBoolean() ? 0xFF : random.nextInt(32));
          s.write(out, at + 1, out.length - at - 1);
        }
        case 3 -> s.write(out, 0, at); // truncated
        default -> { // a slice repeated
          int end = Math.min(out.length, at + 1 + random.nextInt(16));
          s.write(out, 0, end);
          s.write(out, at, out.length - at);
        }
      }
      out = s.toByteArray();
    }
    return out;
  }

  private static ScannedAnswer.Kind kindAsParsed(JsonObject message) {
    if (message.getValue("error") != null) {
      return ScannedAnswer.Kind.RPC_ERROR;
    }
    Object result = message.getValue("result");
    return result instanceof JsonObject r && Boolean.TRUE.equals(r.getValue("isError"))
        ? ScannedAnswer.Kind.TOOL_ERROR
        : ScannedAnswer.Kind.RESULT;
  }

  private static String printable(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }
}
