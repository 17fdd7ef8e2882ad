package dev.toolgate.sidecar.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.sidecar.mcp.ScannedAnswer.Kind;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScannedAnswerTest {

  private static ScannedAnswer scan(String message) {
    return ScannedAnswer.of(Buffer.buffer(message));
  }

  @Test
  void classifiesAResultAToolErrorAndAnErrorFromTheBytes() {
    assertThat(
            scan("{\"jsonrpc\":\"2.0\",\"id\":\"tg-1-a1\",\"result\":{\"content\":[],\"isError\":false}}")
                .kind())
        .isEqualTo(Kind.RESULT);
    assertThat(scan("{\"id\":\"tg-1-a1\",\"result\":{\"content\":[]}}").kind())
        .isEqualTo(Kind.RESULT);
    assertThat(scan("{\"id\":\"tg-1-a1\",\"result\":null}").kind()).isEqualTo(Kind.RESULT);
    assertThat(scan("{\"result\":{\"isError\" : true,\"content\":[]},\"id\":\"tg-1-a1\"}").kind())
        .isEqualTo(Kind.TOOL_ERROR);
    ScannedAnswer error =
        scan("{\"id\":\"tg-1-a1\",\"error\":{\"message\":\"bad\",\"code\":-32602}}");
    assertThat(error.kind()).isEqualTo(Kind.RPC_ERROR);
    assertThat(error.errorCode()).isEqualTo(-32602);
    assertThat(scan("{\"id\":\"tg-1-a1\",\"error\":{\"message\":\"no code\"}}").errorCode())
        .isZero();
  }

  @Test
  void readsAnErrorBeforeAResultAsAParseWould() {
    assertThat(scan("{\"id\":1,\"result\":{\"isError\":true},\"error\":{\"code\":7}}").kind())
        .isEqualTo(Kind.RPC_ERROR);
  }

  @Test
  void readsOnlyTheTopLevelIsErrorAndCode() {
    assertThat(
            scan("{\"id\":1,\"result\":{\"content\":[{\"isError\":true}],\"x\":{\"isError\":true}}}")
                .kind())
        .isEqualTo(Kind.RESULT);
    assertThat(scan("{\"id\":1,\"error\":{\"data\":{\"code\":5},\"code\":9}}").errorCode())
        .isEqualTo(9);
    assertThat(scan("{\"id\":1,\"isError\":true,\"code\":3,\"result\":{}}").kind())
        .isEqualTo(Kind.RESULT);
  }

  @Test
  void knowsItsIdOnlyAsTheSameString() {
    ScannedAnswer answer = scan("{\"id\":\"tg-1-a1\",\"result\":{}}");

    assertThat(answer.idIs("tg-1-a1")).isTrue();
    assertThat(answer.idIs("tg-1-a2")).isFalse();
    assertThat(answer.idIs("tg-1-a")).isFalse();
    assertThat(scan("{\"id\":11,\"result\":{}}").idIs("11")).isFalse();
  }

  @Test
  void declinesWhatAParseCouldReadOtherwise() {
    for (String message :
        List.of(
            "{\"id\":\"tg-1-a1\",\"result\":{\"text\":\"café\"}}",
            "{\"id\":\"tg\\u002d1\",\"result\":{}}",
            "{\"id\":1,\"method\":\"ping\",\"result\":{}}",
            "{\"id\":1,\"method\":null,\"result\":{}}",
            "{\"id\":1}",
            "{\"id\":1,\"error\":\"boom\"}",
            "{\"id\":1,\"error\":null,\"result\":{}}",
            "{\"id\":1,\"error\":{\"code\":1.5}}",
            "{\"id\":1,\"error\":{\"code\":1e3}}",
            "{\"id\":1,\"error\":{\"code\":\"-32602\"}}",
            "{\"id\":1,\"error\":{\"code\":null}}",
            "{\"id\":1,\"error\":{\"code\":2147483648}}",
            "{\"id\":1,\"result\":\"done\"}",
            "{\"id\":1,\"result\":[]}",
            "{\"id\":1,\"result\":{\"isError\":\"true\"}}",
            "{\"id\":1,\"result\":{\"isError\":null}}",
            "{\"id\":1,\"result\":{\"text\":\"a\\qb\"}}",
            "{\"id\":1,\"result\":{\"text\":\"\\u12G4\"}}")) {
      assertThat(scan(message)).as(message).isNull();
    }
    assertThat(scan("{\"id\":1,\"error\":{\"code\":-2147483648}}").errorCode())
        .isEqualTo(Integer.MIN_VALUE);
  }

  @Test
  void notesTheGivenKeysInAnyObjectButNotInText() {
    ScannedAnswer.Keys keys = ScannedAnswer.keys("taskId", "operation_id");
    String nested =
        "{\"id\":1,\"result\":{\"structuredContent\":{\"list\":[{\"operation_id\":\"op-1\"}]}}}";
    String inText =
        "{\"id\":1,\"result\":{\"note\":\"\\\"taskId\\\": \\\"operation_id\\\"\",\"op\":\"taskId\"}}";

    assertThat(ScannedAnswer.of(Buffer.buffer(nested), keys).hasNotedKey()).isTrue();
    assertThat(ScannedAnswer.of(Buffer.buffer(inText), keys).hasNotedKey()).isFalse();
    assertThat(ScannedAnswer.of(Buffer.buffer(nested)).hasNotedKey()).as("no key given").isFalse();
  }

  @Test
  void passesTheAnswerOnUnderAnotherIdFromItsOneScan() {
    ScannedAnswer answer = scan("{\"id\":\"tg-1-a1\",\"result\":{\"isError\":false}}");

    assertThat(answer.withId(7).toString()).isEqualTo("{\"id\":7,\"result\":{\"isError\":false}}");
    assertThat(answer.eventWithId("a").toString())
        .isEqualTo("data: {\"id\":\"a\",\"result\":{\"isError\":false}}\n\n");
    assertThat(scan("{\"id\":1,\n\"result\":{}}").eventWithId(2)).isNull();
  }
}
