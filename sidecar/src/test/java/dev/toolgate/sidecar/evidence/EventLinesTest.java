package dev.toolgate.sidecar.evidence;

import static dev.toolgate.sidecar.evidence.AttemptEventExamples.forwarded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventLinesTest {

  private static List<String> lines(ByteArrayOutputStream out) {
    return Arrays.asList(out.toString(StandardCharsets.UTF_8).split("\n", -1));
  }

  @Test
  void writesEachItemOnALineOfItsOwnInTheBatchsOrderWithNothingBeforeIt() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String record = new JsonObject().put("event", "quota_block").put("sessionKey", "s1").encode();

    EventLines.write(List.of(forwarded("c1"), record, forwarded("c2"), forwarded("c3")), out);

    List<String> lines = lines(out);
    assertThat(lines).as("four lines, the last one ended").hasSize(5).endsWith("");
    assertThat(lines.subList(0, 4)).allSatisfy(l -> assertThat(l).startsWith("{").endsWith("}"));
    assertThat(lines.get(1)).isEqualTo(record);
    assertThat(lines.subList(0, 4))
        .extracting(l -> new JsonObject(l).getString("correlationId"))
        .containsExactly("c1", null, "c2", "c3");
    assertThat(new JsonObject(lines.get(3)).getDouble("durationMs")).isEqualTo(1.5);
  }

  @Test
  void writesEveryFieldOfAnEventByNameInItsOrder() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    AttemptEvent every =
        new AttemptEvent(
            Instant.parse("2026-11-30T08:00:00.042Z"),
            "c1",
            "conv-1",
            "intent-1",
            "s1",
            "create_job",
            "jobs",
            2,
            "c1-a2",
            "timeout",
            504,
            2.0005,
            "attempt",
            "op-9",
            7,
            "abc",
            "shadow",
            "forwarded",
            "timeout",
            "idem-1",
            "budget \"spent\"",
            "deny",
            "half_open",
            "ap-1",
            "alice");

    EventLines.write(List.of(every), out);

    assertThat(out.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"ts\":\"2026-11-30T08:00:00.042Z\",\"event\":\"tool_attempt\","
                + "\"correlationId\":\"c1\",\"conversationId\":\"conv-1\",\"intentId\":\"intent-1\","
                + "\"sessionKey\":\"s1\",\"tool\":\"create_job\",\"upstream\":\"jobs\","
                + "\"attempt\":2,\"upstreamRequestId\":\"c1-a2\",\"result\":\"timeout\","
                + "\"httpStatus\":504,\"durationMs\":2.001,\"timeoutLayer\":\"attempt\","
                + "\"backendOperationId\":\"op-9\",\"policyRevision\":7,\"configHash\":\"abc\","
                + "\"mode\":\"shadow\",\"decision\":\"forwarded\",\"retryReason\":\"timeout\","
                + "\"idempotencyKey\":\"idem-1\",\"reason\":\"budget \\\"spent\\\"\","
                + "\"wouldHave\":\"deny\",\"circuitState\":\"half_open\","
                + "\"approvalId\":\"ap-1\",\"approver\":\"alice\"}"
                + "\n");
  }

  @Test
  void keepsARecordsTextAsUtf8() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String record =
        new JsonObject()
            .put("event", "kill_switch")
            .put("reason", "arrêt d'urgence — équipe SRE")
            .encode();

    EventLines.write(List.of(record, forwarded("c1")), out);

    assertThat(lines(out).get(0)).isEqualTo(record);
    assertThat(new JsonObject(lines(out).get(1)).getString("correlationId")).isEqualTo("c1");
  }

  @Test
  void writesNothingForAnEmptyBatch() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    EventLines.write(List.of(), out);

    assertThat(out.size()).isZero();
  }

  @Test
  void refusesAnItemThatIsNeitherAnEventNorARecordNamingItsType() {
    assertThatThrownBy(
            () -> EventLines.write(List.of(forwarded("c1"), 42), new ByteArrayOutputStream()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.Integer");
  }
}
