package dev.toolgate.sidecar.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SessionAuditTest {

  private static final Instant AT = Instant.parse("2026-12-02T18:00:00Z");

  @Test
  void listsASessionsCallsOldestFirstAsTheAuditRecordShowsThem() {
    SessionAudit audit = new SessionAudit();
    audit.record("s1", AT, "get_job", 1, "success", "allowed");
    audit.record("s2", AT, "other", 1, "success", "allowed");
    audit.record(
        "s1", AT.plusMillis(1_500), "cancel_job", 0, "policy_denied", "denied:quota_exceeded");

    assertThat(audit.lastCalls("s1"))
        .isEqualTo(
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("ts", "2026-12-02T18:00:00Z")
                        .put("tool", "get_job")
                        .put("attempt", 1)
                        .put("result", "success")
                        .put("decision", "allowed"))
                .add(
                    new JsonObject()
                        .put("ts", "2026-12-02T18:00:01.500Z")
                        .put("tool", "cancel_job")
                        .put("attempt", 0)
                        .put("result", "policy_denied")
                        .put("decision", "denied:quota_exceeded")));
    assertThat(audit.lastCalls("unknown")).isEmpty();
  }

  /**
   * Records {@code n} calls of session "s", named tool-0 to tool-(n-1), and returns the tools its
   * list names.
   */
  private static List<String> toolsListedAfter(int n) {
    SessionAudit audit = new SessionAudit();
    for (int i = 0; i < n; i++) {
      audit.record("s", AT.plusSeconds(i), "tool-" + i, 1, "success", "allowed");
    }
    return audit.lastCalls("s").stream().map(c -> ((JsonObject) c).getString("tool")).toList();
  }

  private static List<String> tools(int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> "tool-" + i).toList();
  }

  @Test
  void keepsTheLastTwentyCallsOfASessionInOrder() {
    assertThat(toolsListedAfter(47)).isEqualTo(tools(47 - SessionAudit.CALLS_KEPT, 47));
  }

  @Test
  void keepsEveryCallOfASessionUnderTwentyInOrder() {
    assertThat(toolsListedAfter(11)).isEqualTo(tools(0, 11));
  }

  @Test
  void forgetsTheLeastRecentlyCalledSessionBeyondItsBound() {
    SessionAudit audit = new SessionAudit();
    for (int i = 0; i < SessionAudit.SESSIONS_KEPT; i++) {
      audit.record("s" + i, AT, "get_job", 1, "success", "allowed");
    }
    audit.record("s0", AT.plusSeconds(1), "get_job", 1, "success", "allowed");

    audit.record("new", AT.plusSeconds(2), "get_job", 1, "success", "allowed");

    assertThat(audit.size()).isEqualTo(SessionAudit.SESSIONS_KEPT);
    assertThat(audit.lastCalls("s1")).isEmpty();
    assertThat(audit.lastCalls("s0")).hasSize(2);
    assertThat(audit.lastCalls("new")).hasSize(1);
  }

  @Test
  void forgetsTheSessionsIdleForTheExpiryAndKeepsTheOthers() {
    SessionAudit audit = new SessionAudit();
    audit.record("old", AT, "get_job", 1, "success", "allowed");
    audit.record("recent", AT.plusSeconds(100), "get_job", 1, "success", "allowed");
    audit.record("old-but-called-again", AT, "get_job", 1, "success", "allowed");
    audit.record("old-but-called-again", AT.plusSeconds(200), "get_job", 1, "success", "allowed");

    audit.expire(AT.plusSeconds(3_600).toEpochMilli(), 3_600_000);

    assertThat(audit.lastCalls("old")).isEmpty();
    assertThat(audit.lastCalls("recent")).hasSize(1);
    assertThat(audit.lastCalls("old-but-called-again")).hasSize(2);
    assertThat(audit.size()).isEqualTo(2);
  }

  @Test
  void keepsOneCopyOfAToolsNameForAllItsCalls() {
    SessionAudit audit = new SessionAudit();
    String first = new String("get_job".toCharArray());
    audit.record("s1", AT, first, 1, "success", "allowed");

    String parsedAgain = new String("get_job".toCharArray());

    assertThat(audit.toolName(parsedAgain)).isSameAs(first);
    String other = new String("other_tool".toCharArray());
    assertThat(audit.toolName(other)).isSameAs(other);
    assertThat(audit.toolName(new String("other_tool".toCharArray()))).isSameAs(other);
  }

  @Test
  void keepsACopyPerCallOfNamesBeyondItsBound() {
    SessionAudit audit = new SessionAudit();
    for (int i = 0; i < SessionAudit.TOOL_NAMES_KEPT; i++) {
      audit.record("s", AT, "tool-" + i, 1, "success", "allowed");
    }
    String beyond = new String("one-too-many".toCharArray());
    audit.record("s", AT, beyond, 1, "success", "allowed");

    String again = new String("one-too-many".toCharArray());

    assertThat(audit.toolName(again)).isSameAs(again);
    String keptBefore = new String("tool-0".toCharArray());
    assertThat(audit.toolName(keptBefore)).isEqualTo("tool-0").isNotSameAs(keptBefore);
  }

  @Test
  void listsACallsTimeToTheNanosecondAsItsTraceEventDoes() {
    SessionAudit audit = new SessionAudit();
    audit.record("s", AT.plusNanos(1_234_567), "get_job", 1, "success", "allowed");

    assertThat(audit.lastCalls("s").getJsonObject(0).getString("ts"))
        .isEqualTo("2026-12-02T18:00:00.001234567Z");
  }
}
