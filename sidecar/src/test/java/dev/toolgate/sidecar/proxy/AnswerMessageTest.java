package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.sidecar.mcp.JsonRpc;
import dev.toolgate.sidecar.mcp.OperationId;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class AnswerMessageTest {

  private static final String ID = "tg-1a2b3c-7-a1";

  @Test
  void classifiesAScannedAnswerAsItsParsedFormIs() {
    for (String message :
        List.of(
            "{\"id\":\"" + ID + "\",\"result\":{\"isError\":false}}",
            "{\"id\":\"" + ID + "\",\"result\":{\"isError\":true}}",
            "{\"id\":\"" + ID + "\",\"error\":{\"code\":-32602,\"message\":\"bad arguments\"}}",
            "{\"id\":\"" + ID + "\",\"error\":{\"code\":-32603,\"message\":\"internal\"}}")) {
      AnswerMessage scanned = AnswerMessage.scan(Buffer.buffer(message));

      assertThat(scanned.resultClass())
          .as(message)
          .isEqualTo(Attempt.classify(new JsonObject(message)));
    }
  }

  @Test
  void classifiesAMalformedResponseAsAProtocolError() {
    for (String malformed :
        List.of(
            "\"error\":\"boom\"",
            "\"error\":{\"code\":\"x\"}",
            "\"result\":\"done\"",
            "\"result\":[]",
            "\"result\":{\"isError\":\"true\"}",
            "\"result\":{\"isError\":1}")) {
      JsonObject message = new JsonObject("{\"id\":\"" + ID + "\"," + malformed + "}");

      assertThat(Attempt.classify(message)).as(malformed).isEqualTo(ResultClass.PROTOCOL_ERROR);
    }
    assertThat(Attempt.classify(new JsonObject("{\"id\":1,\"result\":{\"isError\":null}}")))
        .isEqualTo(ResultClass.SUCCESS);
    assertThat(Attempt.classify(new JsonObject("{\"id\":1,\"result\":null}")))
        .isEqualTo(ResultClass.SUCCESS);
    assertThat(Attempt.classify(new JsonObject("{\"id\":1,\"error\":{\"code\":-32602.0}}")))
        .isEqualTo(ResultClass.INVALID_ARGUMENTS);
  }

  @Test
  void findsNoOperationIdWhereNoKeyCouldHoldOneAndParsesOnce() {
    Buffer bytes =
        Buffer.buffer(
            "{\"id\":\"" + ID + "\",\"result\":{\"structuredContent\":{\"job_id\":\"j\"}}}");
    AnswerMessage answer = AnswerMessage.scan(bytes);

    assertThat(answer.operationId()).isNull();
    assertThat(answer.resultClass()).isEqualTo(ResultClass.SUCCESS);
    assertThat(answer.json()).isSameAs(answer.json());
    assertThat(answer.json().getString("id")).isEqualTo(ID);
  }

  @Test
  void findsTheOperationIdOfAScannedAnswer() {
    String message =
        "{\"id\":\"" + ID + "\",\"result\":{\"structuredContent\":{\"operation_id\":\"op-9\"}}}";

    assertThat(AnswerMessage.scan(Buffer.buffer(message)).operationId()).isEqualTo("op-9");
  }

  /**
   * Whatever an upstream answers, where the scan reads it, it reads what the parse does: whether it
   * is this attempt's response, its class, whether it has a result, its operation id; and where the
   * parse fails, the scan declines.
   */
  @Property(tries = 1000)
  void readsWhatTheParseReadsWheneverItReads(@ForAll long seed) {
    Random random = new Random(seed);
    String text = answer(random);
    Buffer bytes = Buffer.buffer(text);

    AnswerMessage answer = AnswerMessage.scan(bytes);
    JsonObject parsed;
    try {
      parsed = new JsonObject(bytes);
    } catch (DecodeException e) {
      assertThat(answer).as(text).isNull();
      return;
    }
    if (answer == null) {
      return;
    }
    assertThat(JsonRpc.isResponse(parsed)).as(text).isTrue();
    assertThat(answer.resultClass()).as(text).isEqualTo(Attempt.classify(parsed));
    assertThat(answer.hasResult())
        .as(text)
        .isEqualTo(parsed.getValue("result") instanceof JsonObject);
    for (String id : List.of(ID, "tg-1a2b3c-7-a2", "1")) {
      assertThat(answer.idIs(id))
          .as(text + " is " + id)
          .isEqualTo(id.equals(parsed.getValue("id")));
    }
    assertThat(answer.operationId()).as(text).isEqualTo(OperationId.of(parsed));
  }

  private static String answer(Random random) {
    List<String> members = new ArrayList<>();
    members.add("\"jsonrpc\":\"2.0\"");
    members.add(
        "\"id\":"
            + pick(random, "\"" + ID + "\"", "\"tg-1a2b3c-7-a2\"", "1", "\"tg\\u002d1\"", "null"));
    switch (random.nextInt(6)) {
      case 0, 1, 2 -> members.add("\"result\":" + result(random));
      case 3 -> members.add("\"error\":" + error(random));
      case 4 -> {
        members.add("\"result\":" + result(random));
        members.add("\"error\":" + error(random));
      }
      default -> {}
    }
    if (random.nextInt(8) == 0) {
      members.add("\"method\":" + pick(random, "\"ping\"", "null"));
    }
    if (random.nextInt(4) == 0) {
      members.add("\"extra\":" + value(random, 1));
    }
    Collections.shuffle(members, random);
    return "{" + String.join(",", members) + "}";
  }

  private static String result(Random random) {
    if (random.nextInt(6) == 0) {
      return pick(random, "null", "\"done\"", "[]", "1");
    }
    List<String> members = new ArrayList<>();
    if (random.nextBoolean()) {
      members.add(
          "\"isError\":" + pick(random, "true", "false", "true", "false", "null", "\"true\"", "1"));
    }
    if (random.nextBoolean()) {
      members.add(
          "\"structuredContent\":{"
              + pick(
                  random,
                  "\"operation_id\":\"op-1\"",
                  "\"operationId\":\"op-2\"",
                  "\"job_id\":" + string(random),
                  "\"operation_id\":7")
              + "}");
    }
    if (random.nextInt(4) == 0) {
      members.add("\"task\":{\"taskId\":" + pick(random, "\"t-1\"", "null") + "}");
    }
    members.add("\"content\":[{\"type\":\"text\",\"text\":" + string(random) + "}]");
    Collections.shuffle(members, random);
    return "{" + String.join(",", members) + "}";
  }

  private static String error(Random random) {
    if (random.nextInt(6) == 0) {
      return pick(random, "null", "\"boom\"", "[]");
    }
    List<String> members = new ArrayList<>();
    if (random.nextInt(5) > 0) {
      members.add(
          "\"code\":"
              + pick(
                  random,
                  "-32602",
                  "-32603",
                  "0",
                  "7",
                  "1.5",
                  "1e3",
                  "\"x\"",
                  "null",
                  "2147483648",
                  "-2147483648",
                  "-0"));
    }
    members.add("\"message\":" + string(random));
    Collections.shuffle(members, random);
    return "{" + String.join(",", members) + "}";
  }

  private static String value(Random random, int depth) {
    return switch (random.nextInt(depth > 2 ? 3 : 5)) {
      case 0 -> string(random);
      case 1 -> pick(random, "0", "-1.5e3", "true", "null", "01", "1.");
      case 2 -> "{\"isError\":true,\"code\":3}";
      case 3 -> "[" + value(random, depth + 1) + "," + value(random, depth + 1) + "]";
      default -> "{\"k\":" + value(random, depth + 1) + "}";
    };
  }

  /**
   * String literals, some of which a parse refuses: bad escapes, control characters; some not
   * ASCII.
   */
  private static String string(Random random) {
    String[] pieces = {
      "a",
      "\\\"",
      "\\\\",
      "\\n",
      "\\u00e9",
      "é",
      "\\q",
      "\\u12G4",
      "\u0001",
      "\\\"operation_id\\\"",
      "\"operationId\"",
      "x"
    };
    StringBuilder s = new StringBuilder("\"");
    for (int i = random.nextInt(5); i > 0; i--) {
      s.append(pieces[random.nextInt(pieces.length)]);
    }
    return s.append('"').toString();
  }

  private static String pick(Random random, String... choices) {
    return choices[random.nextInt(choices.length)];
  }
}
