package dev.toolgate.e2e;

import static dev.toolgate.e2e.Agent.code;
import static dev.toolgate.e2e.Agent.toolgate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Seed 000's journey and its four failure cases, seed 002's quota case, the kill switch, shadow
 * mode and a rollback, through two sidecar replicas sharing the state service, driven by the
 * official MCP Java SDK. Writes e2e/local/target/e2e-evidence/report.md (and report.json). Runs
 * against local processes (the default, in CI) or, with {@code -Dtoolgate.e2e.target=kind}, a
 * cluster e2e/kind/run set up.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SeedCasesIT {

  static final String GET = "get_deployment_job";
  static final String RESTART = "restart_deployment_job";
  static final String LOOKUP = "get_operation_by_key";
  static final String INTENT = "dev.toolgate/intent-id";
  static final String APPROVAL = "dev.toolgate/approval";

  private Toolgate stack;
  private final Evidence evidence = new Evidence();
  private Agent a;
  private Agent b;
  private Path root;

  @BeforeAll
  void start() throws Exception {
    root = Path.of(System.getProperty("toolgate.root", "../..")).toAbsolutePath().normalize();
    stack = Toolgate.start(root);
    a = new Agent(stack.replicas().get(0));
    b = new Agent(stack.replicas().get(1));
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (stack != null) {
        stack.facts().forEach(evidence::fact);
        evidence.write(root.resolve("e2e/local/target/e2e-evidence"));
      }
    } finally {
      for (Agent agent : new Agent[] {a, b}) {
        if (agent != null) {
          agent.close();
        }
      }
      if (stack != null) {
        stack.close();
      }
    }
  }

  private List<JsonNode> eventsSince(Instant start) throws Exception {
    List<JsonNode> events = new ArrayList<>();
    for (JsonNode e : stack.events()) {
      if (!Instant.parse(e.path("ts").asText()).isBefore(start)) {
        events.add(e);
      }
    }
    return events;
  }

  /**
   * The events since {@code start} once at least {@code expected} are there, or after 5 s: the
   * sidecar writes an event after it answers, from another thread, so the last call's event can
   * trail the answer. A case that gets fewer reports the difference in its check.
   */
  private List<JsonNode> eventsSince(Instant start, int expected) throws Exception {
    try {
      return await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> eventsSince(start), events -> events.size() >= expected);
    } catch (ConditionTimeoutException e) {
      return eventsSince(start);
    }
  }

  /** Attempts that reached the backend (a call the policy refused has one event, attempt 0). */
  private static long attempts(List<JsonNode> events, String tool) {
    return events.stream()
        .filter(e -> "tool_attempt".equals(e.path("event").asText()))
        .filter(e -> tool.equals(e.path("tool").asText()))
        .filter(e -> e.path("attempt").asInt() >= 1)
        .count();
  }

  private static String json(Map<String, Object> arguments) throws Exception {
    return LocalStack.JSON.writeValueAsString(arguments);
  }

  private CallToolResult write(Agent agent, String job, String intent) throws Exception {
    Map<String, Object> args = Map.of("job_id", job, "environment", "prod");
    return agent.call(
        RESTART, args, Map.of(INTENT, intent, APPROVAL, stack.approve(RESTART, json(args))));
  }

  private static Map<String, Object> map(Object... pairs) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], pairs[i + 1]);
    }
    return map;
  }

  @Test
  @Order(1)
  void inspectThenRestartDeploymentJob() throws Exception {
    Instant start = Instant.now();
    long operations = stack.operationsPerformed(RESTART);
    CallToolResult read = a.call(GET, Map.of("job_id", "j1"));
    Map<String, Object> args = Map.of("job_id", "j1", "environment", "prod");
    CallToolResult unapproved = a.call(RESTART, args, Map.of(INTENT, "journey-1"));
    CallToolResult restarted = write(a, "j1", "journey-1");
    Map<?, ?> operation = (Map<?, ?>) restarted.structuredContent();
    CallToolResult lookup =
        a.call(LOOKUP, Map.of("idempotency_key", String.valueOf(operation.get("idempotency_key"))));
    Map<?, ?> found = (Map<?, ?>) lookup.structuredContent();
    CallToolResult after = a.call(GET, Map.of("job_id", "j1"));
    List<JsonNode> events = eventsSince(start, 5);

    evidence.check(
        "inspect_then_restart_deployment_job",
        "seed 000 journey",
        map(
            "read_answers_current_state",
            true,
            "write_without_approval",
            "approval_required",
            "write_with_approval",
            "ok",
            "backend_operations",
            1L,
            "operation_found_by_key",
            true,
            "state_after_restart",
            "running",
            "one_event_per_attempt_with_correlation_id",
            true),
        map(
            "read_answers_current_state",
            code(read).equals("ok")
                && ((Map<?, ?>) read.structuredContent()).containsKey("observed_at"),
            "write_without_approval",
            code(unapproved),
            "write_with_approval",
            code(restarted),
            "backend_operations",
            stack.operationsPerformed(RESTART) - operations,
            "operation_found_by_key",
            Boolean.TRUE.equals(found.get("found"))
                && operation
                    .get("operation_id")
                    .equals(((Map<?, ?>) found.get("operation")).get("operation_id")),
            "state_after_restart",
            ((Map<?, ?>) after.structuredContent()).get("state"),
            "one_event_per_attempt_with_correlation_id",
            events.size() == 5
                && attempts(events, GET) == 2
                && attempts(events, RESTART) == 1
                && attempts(events, LOOKUP) == 1
                && events.stream()
                        .map(e -> e.path("correlationId").asText())
                        .filter(c -> c.startsWith("tg-"))
                        .distinct()
                        .count()
                    == 5),
        events);
  }

  @Test
  @Order(2)
  void aRelaunchThroughTheOtherReplicaIsReplayedNotExecutedAgain() throws Exception {
    Instant start = Instant.now();
    long operations = stack.operationsPerformed(RESTART);
    Map<String, Object> args = Map.of("job_id", "j7", "environment", "prod");
    String approval = stack.approve(RESTART, json(args));
    CallToolResult first = a.call(RESTART, args, Map.of(INTENT, "relaunch-1", APPROVAL, approval));
    CallToolResult relaunch =
        b.call(RESTART, args, Map.of(INTENT, "relaunch-1", APPROVAL, approval));

    evidence.check(
        "relaunch_on_another_replica",
        "seed 000 (one intent, one operation)",
        map(
            "first",
            "ok",
            "relaunch",
            "ok",
            "relaunch_replayed",
            true,
            "same_operation",
            true,
            "backend_operations",
            1L),
        map(
            "first",
            code(first),
            "relaunch",
            code(relaunch),
            "relaunch_replayed",
            Boolean.TRUE.equals(
                relaunch.meta() == null ? null : relaunch.meta().get("dev.toolgate/replay")),
            "same_operation",
            ((Map<?, ?>) first.structuredContent())
                .get("operation_id")
                .equals(((Map<?, ?>) relaunch.structuredContent()).get("operation_id")),
            "backend_operations",
            stack.operationsPerformed(RESTART) - operations),
        eventsSince(start));
  }

  @Test
  @Order(3)
  void oneApprovalGivesOneOperationWhicheverReplicaAndIntentItIsReplayedWith() throws Exception {
    Instant start = Instant.now();
    long operations = stack.operationsPerformed(RESTART);
    long received = stack.callsReceived(RESTART);
    Map<String, Object> args = Map.of("job_id", "j8", "environment", "prod");
    String approval = stack.approve(RESTART, json(args));
    CallToolResult first = a.call(RESTART, args, Map.of(INTENT, "approval-i1", APPROVAL, approval));
    CallToolResult replayed =
        b.call(RESTART, args, Map.of(INTENT, "approval-i2", APPROVAL, approval));
    CallToolResult sameReplica =
        a.call(RESTART, args, Map.of(INTENT, "approval-i3", APPROVAL, approval));
    // This case's own events: the previous case's last event can be stamped after it returned.
    List<JsonNode> events =
        eventsSince(start, 3).stream()
            .filter(e -> e.path("intentId").asText().startsWith("approval-i"))
            .toList();

    evidence.check(
        "one_approval_one_operation",
        "seed 000 (an approval is single-use, cluster-wide)",
        map(
            "first",
            "ok",
            "other_replica_other_intent",
            "approval_required",
            "same_replica_other_intent",
            "approval_required",
            "backend_calls",
            1L,
            "backend_operations",
            1L,
            "every_event_names_approval_and_approver",
            true),
        map(
            "first",
            code(first),
            "other_replica_other_intent",
            code(replayed),
            "same_replica_other_intent",
            code(sameReplica),
            "backend_calls",
            stack.callsReceived(RESTART) - received,
            "backend_operations",
            stack.operationsPerformed(RESTART) - operations,
            "every_event_names_approval_and_approver",
            events.size() == 3
                && events.stream()
                    .allMatch(
                        e ->
                            e.path("approvalId").asText().startsWith("ap-")
                                && "e2e-operator".equals(e.path("approver").asText()))),
        events);
  }

  @Test
  @Order(4)
  void readTransient503() throws Exception {
    Instant start = Instant.now();
    long calls = stack.callsReceived(GET);
    long operations = stack.operationsPerformed(RESTART);
    stack.fault(GET, "{\"kind\":\"status\",\"status\":503,\"times\":1}");
    CallToolResult read = a.call(GET, Map.of("job_id", "j1"));
    List<JsonNode> events = eventsSince(start, 2);

    evidence.check(
        "read_transient_503",
        "seed 000 case",
        map("attempts", 2L, "backend_operations", 0L, "answer_contains_fresh_state", true),
        map(
            "attempts",
            attempts(events, GET),
            "backend_calls",
            stack.callsReceived(GET) - calls,
            "backend_operations",
            stack.operationsPerformed(RESTART) - operations,
            "answer_contains_fresh_state",
            code(read).equals("ok")
                && ((Map<?, ?>) read.structuredContent()).get("observed_at") != null,
            "first_attempt_result",
            events.isEmpty() ? null : events.get(0).path("result").asText()),
        events);
  }

  @Test
  @Order(5)
  void writeResponseLostAfterAccept() throws Exception {
    Instant start = Instant.now();
    long calls = stack.callsReceived(RESTART);
    long lookups = stack.callsReceived(LOOKUP);
    long operations = stack.operationsPerformed(RESTART);
    stack.fault(RESTART, "{\"kind\":\"lose_response\",\"times\":1}");
    CallToolResult answer = write(a, "j2", "lost-1");
    Map<String, Object> details = toolgate(answer);

    evidence.check(
        "write_response_lost_after_accept",
        "seed 000 case",
        map(
            "automatic_retry",
            false,
            "operation_lookup_by_idempotency_key",
            true,
            "duplicate_operations",
            0L,
            "answer",
            "ambiguous_write",
            "lookup",
            "accepted"),
        map(
            "automatic_retry",
            stack.callsReceived(RESTART) - calls > 1,
            "operation_lookup_by_idempotency_key",
            stack.callsReceived(LOOKUP) - lookups == 1,
            "duplicate_operations",
            stack.operationsPerformed(RESTART) - operations - 1,
            "answer",
            code(answer),
            "lookup",
            details.get("lookup"),
            "operation_id_reported",
            String.valueOf(details.get("operationId")).startsWith("op-")),
        eventsSince(start));
  }

  @Test
  @Order(6)
  void budgetExhausted() throws Exception {
    Instant start = Instant.now();
    long calls = stack.callsReceived(GET);
    stack.latency(GET, 3_000);
    CallToolResult answer;
    try {
      answer = a.call(GET, Map.of("job_id", "j1"));
    } finally {
      stack.latency(GET, 0);
    }
    Map<String, Object> details = toolgate(answer);

    evidence.check(
        "budget_exhausted",
        "seed 000 case",
        map("extra_retry", false, "timeout_layer_reported", true, "correlation_id_returned", true),
        map(
            "extra_retry",
            stack.callsReceived(GET) - calls > 1,
            "timeout_layer_reported",
            "attempt".equals(details.get("timeoutLayer")),
            "correlation_id_returned",
            String.valueOf(details.get("correlationId")).startsWith("tg-")
                && Agent.text(answer).contains(String.valueOf(details.get("correlationId"))),
            "answer",
            code(answer)),
        eventsSince(start));
  }

  @Test
  @Order(7)
  void sustainedDependencyFailure() throws Exception {
    Instant start = Instant.now();
    stack.fault(GET, "{\"kind\":\"status\",\"status\":503,\"times\":1000}");
    List<String> codes = new ArrayList<>();
    for (int i = 0; i < 8 && !codes.contains("circuit_open"); i++) {
      codes.add(code(a.call(GET, Map.of("job_id", "j1"))));
    }
    CallToolResult onOtherReplica =
        await()
            .atMost(Duration.ofSeconds(3))
            .until(() -> b.call(GET, Map.of("job_id", "j1")), r -> code(r).equals("circuit_open"));
    stack.fault(RESTART, "{\"kind\":\"status\",\"status\":503,\"times\":2}");
    write(a, "j3", "breaker-w1");
    write(a, "j3", "breaker-w2");
    CallToolResult writeWhileOpen = write(a, "j3", "breaker-w3");

    Instant opened = Instant.now();
    stack.clearFaults();
    stack.latency(GET, 300);
    long calls = stack.callsReceived(GET);
    // The real process runs on the wall clock: wait out openSeconds (2 s) before the half-open
    // probes.
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> Instant.now().isAfter(opened.plusMillis(2_100)));
    ExecutorService pool = Executors.newFixedThreadPool(3);
    List<String> halfOpen;
    try {
      halfOpen =
          IntStream.range(0, 3)
              .mapToObj(
                  i ->
                      CompletableFuture.supplyAsync(
                          () -> code(a.call(GET, Map.of("job_id", "j1"))), pool))
              .toList()
              .stream()
              .map(CompletableFuture::join)
              .toList();
    } finally {
      pool.shutdown();
      stack.latency(GET, 0);
    }
    long probes = stack.callsReceived(GET) - calls;
    String closed =
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> code(a.call(GET, Map.of("job_id", "j1"))), "ok"::equals);

    evidence.check(
        "sustained_dependency_failure",
        "seed 000 case",
        map(
            "circuit_opens",
            true,
            "opening_seen_by_the_other_replica",
            true,
            "probe_concurrency",
            1L,
            "write_fallback",
            false,
            "recovers",
            true),
        map(
            "circuit_opens",
            codes.contains("circuit_open"),
            "answers_until_open",
            codes,
            "opening_seen_by_the_other_replica",
            code(onOtherReplica).equals("circuit_open"),
            "degraded_read_evidence",
            toolgate(onOtherReplica).get("evidence"),
            "probe_concurrency",
            probes,
            "half_open_answers",
            halfOpen,
            "write_while_open",
            code(writeWhileOpen),
            "write_fallback",
            toolgate(writeWhileOpen).containsKey("fallback"),
            "recovers",
            "ok".equals(closed)),
        eventsSince(start));
    await("the write breaker closes again")
        .pollDelay(Duration.ofMillis(2_100))
        .atMost(Duration.ofSeconds(10))
        .until(() -> code(write(a, "j3", "breaker-close-" + System.nanoTime())).equals("ok"));
  }

  @Test
  @Order(8)
  void theSixteenthWriteOfASessionIsRefusedAndAudited() throws Exception {
    Instant start = Instant.now();
    long operations = stack.operationsPerformed(RESTART);
    List<String> approvals;
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      approvals =
          IntStream.range(0, 16)
              .mapToObj(
                  i ->
                      CompletableFuture.supplyAsync(
                          () -> {
                            try {
                              return stack.approve(
                                  RESTART, json(Map.of("job_id", "q" + i, "environment", "prod")));
                            } catch (Exception e) {
                              throw new IllegalStateException(e);
                            }
                          },
                          pool))
              .toList()
              .stream()
              .map(CompletableFuture::join)
              .toList();
    } finally {
      pool.shutdown();
    }
    List<String> codes = new ArrayList<>();
    CallToolResult last = null;
    try (Agent session = new Agent(stack.replicas().get(0))) {
      for (int i = 0; i < 16; i++) {
        last =
            session.call(
                RESTART,
                Map.of("job_id", "q" + i, "environment", "prod"),
                Map.of(INTENT, "quota-" + i, APPROVAL, approvals.get(i)));
        codes.add(code(last));
      }
    }
    CallToolResult refused = last;
    JsonNode audit =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(
                () ->
                    eventsSince(start).stream()
                        .filter(e -> "quota_block".equals(e.path("event").asText()))
                        .findFirst()
                        .orElse(null),
                a -> a != null);
    String notifications =
        !stack.notifies()
            ? ""
            : await()
                .atMost(Duration.ofSeconds(20))
                .until(
                    () ->
                        Http.get(stack.replicas().get(0).admin("/metrics"))
                            .body()
                            .lines()
                            .filter(l -> l.startsWith("toolgate_notifications_total"))
                            .findFirst()
                            .orElse(""),
                    l -> !l.isEmpty());

    evidence.check(
        "write_quota_per_session",
        "seed 002 (15 writes per session)",
        map(
            "writes_executed",
            15L,
            "sixteenth",
            "quota_exceeded",
            "explains_the_limit",
            true,
            "audited_with_last_calls",
            true,
            "notification_attempted",
            stack.notifies()),
        map(
            "writes_executed",
            stack.operationsPerformed(RESTART) - operations,
            "sixteenth",
            codes.get(15),
            "explains_the_limit",
            Agent.text(refused).contains("15"),
            "message",
            Agent.text(refused),
            "audited_with_last_calls",
            audit.path("lastCalls").size() > 0,
            "audit_limit",
            audit.path("limit").asText(),
            "notification_attempted",
            notifications.contains("outcome=")),
        eventsSince(start));
  }

  @Test
  @Order(9)
  void theKillSwitchBlocksWritesOnEveryReplicaAndKeepsReads() throws Exception {
    Instant start = Instant.now();
    stack.writeRevision(2, spec -> spec.putObject("killSwitch").put("blockWrites", true));
    stack.activate(2);
    long calls = stack.callsReceived(RESTART);
    CallToolResult onA = write(a, "j4", "kill-1");
    CallToolResult onB = write(b, "j4", "kill-2");
    CallToolResult read = b.call(GET, Map.of("job_id", "j4"));

    evidence.check(
        "kill_switch",
        "seed 000 (block writes, keep read-only diagnostics)",
        map(
            "write_on_replica_a",
            "writes_blocked",
            "write_on_replica_b",
            "writes_blocked",
            "backend_write_calls",
            0L,
            "read",
            "ok"),
        map(
            "active_revision",
            stack.replicas().stream()
                .map(
                    r -> {
                      try {
                        return stack.activeRevision(r);
                      } catch (Exception e) {
                        return -1L;
                      }
                    })
                .toList(),
            "write_on_replica_a",
            code(onA),
            "write_on_replica_b",
            code(onB),
            "backend_write_calls",
            stack.callsReceived(RESTART) - calls,
            "read",
            code(read)),
        eventsSince(start));
  }

  @Test
  @Order(10)
  void aRollbackToTheFirstRevisionRestoresWrites() throws Exception {
    Instant start = Instant.now();
    stack.activate(1);
    long operations = stack.operationsPerformed(RESTART);
    CallToolResult written = write(b, "j5", "rollback-1");
    String gauge =
        Http.get(stack.replicas().get(1).admin("/metrics"))
            .body()
            .lines()
            .filter(l -> l.startsWith("toolgate_config_revision"))
            .findFirst()
            .orElse("");

    evidence.check(
        "rollback_to_previous_revision",
        "seed 000 (versioned policy, rollback)",
        map("active_revision", 1L, "revision_gauge", 1.0, "write", "ok", "backend_operations", 1L),
        map(
            "active_revision",
            stack.activeRevision(stack.replicas().get(0)),
            "revision_gauge",
            Double.parseDouble(gauge.substring(gauge.lastIndexOf(' ') + 1)),
            "write",
            code(written),
            "backend_operations",
            stack.operationsPerformed(RESTART) - operations),
        eventsSince(start));
  }

  @Test
  @Order(11)
  void shadowModeReportsWhatEnforcementWouldHaveDone() throws Exception {
    Instant start = Instant.now();
    stack.writeRevision(3, spec -> spec.put("mode", "shadow"));
    stack.activate(3);
    String seen;
    try {
      stack.fault(GET, "{\"kind\":\"status\",\"status\":503,\"times\":1}");
      seen = code(a.call(GET, Map.of("job_id", "j1")));
    } catch (RuntimeException e) {
      // The raw HTTP 503 reaches the agent: the SDK reports it as a transport failure.
      seen = e.getMessage();
    } finally {
      stack.clearFaults();
      stack.activate(1);
    }
    List<JsonNode> events = eventsSince(start, 1);

    evidence.check(
        "shadow_mode",
        "seed 000 (shadow mode before enforcing)",
        map("agent_sees_the_backend_answer", true, "attempts", 1L, "would_have", "retry"),
        map(
            "agent_sees_the_backend_answer",
            seen.contains("503"),
            "agent_saw",
            seen,
            "attempts",
            attempts(events, GET),
            "would_have",
            events.stream()
                .filter(e -> GET.equals(e.path("tool").asText()))
                .map(e -> e.path("wouldHave").asText())
                .findFirst()
                .orElse("")),
        events);
  }

  @Test
  @Order(12)
  void refusesAnUnknownUpstreamBeforeAnyBackend() throws Exception {
    var response =
        Http.post(
            "http://127.0.0.1:" + stack.replicas().get(0).mcpPort() + "/mcp/not-configured",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.body()).contains("not-configured");
  }

  @Test
  @Order(13)
  void everyMetricTheDashboardsQueryIsOneTheSidecarsExport() throws Exception {
    assumeTrue(
        stack.completeScrape(), "this target's scrape lacks metrics only local runs produce");
    List<String> scrapes = new ArrayList<>();
    for (Toolgate.Endpoint replica : stack.replicas()) {
      scrapes.add(Http.get(replica.admin("/metrics")).body());
    }
    scrapes.add(operatorScrape());
    DashboardQueries queries = DashboardQueries.load(root.resolve("charts/toolgate/dashboards"));
    List<String> problems = queries.check(String.join("\n", scrapes));

    evidence.check(
        "dashboards_query_exported_metrics",
        "issue 6 (dashboards)",
        map("unknown_metrics_or_labels", List.of()),
        map("unknown_metrics_or_labels", problems, "expressions_checked", queries.size()),
        List.of());
  }

  /**
   * The operator's /metrics as its own metrics define them, each recorded once: the operator does
   * not run in this stack, and its dashboard row must query what it exports.
   */
  private static String operatorScrape() {
    var metrics = dev.toolgate.operator.health.OperatorMetrics.prometheus();
    metrics.reconciled(
        dev.toolgate.operator.health.OperatorMetrics.APPLIED, java.time.Duration.ofMillis(1));
    metrics.reviewed("injected", java.time.Duration.ofMillis(1));
    metrics.publicationFailed();
    metrics.queueDepth(() -> 0);
    metrics.leading(() -> true);
    metrics.certificateSecondsLeft(() -> 1);
    return metrics.scrape();
  }

  /** Last: it spends the workload's new sessions for the minute. */
  @Test
  @Order(14)
  void fortyOneWriteSessionsOfOneWorkloadStopAtItsCeiling() throws Exception {
    // The approvals first (a JVM each): the 40 sessions then open within one minute.
    List<Map<String, Object>> args =
        IntStream.range(0, 40)
            .mapToObj(i -> Map.<String, Object>of("job_id", "rot-" + i, "environment", "prod"))
            .toList();
    ExecutorService signers = Executors.newFixedThreadPool(4);
    List<String> approvals;
    try {
      List<CompletableFuture<String>> minted = new ArrayList<>();
      for (Map<String, Object> a : args) {
        minted.add(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return stack.approve(RESTART, json(a));
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                },
                signers));
      }
      approvals = minted.stream().map(CompletableFuture::join).toList();
    } finally {
      signers.shutdown();
    }
    Instant start = Instant.now();
    long operations = stack.operationsPerformed(RESTART);
    List<String> codes = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      try (Agent rotated = new Agent(stack.replicas().get(i % 2))) {
        codes.add(
            code(
                rotated.call(
                    RESTART,
                    args.get(i),
                    Map.of(INTENT, "rotation-" + i, APPROVAL, approvals.get(i)))));
      }
    }
    List<JsonNode> events = eventsSince(start, 40);

    long letThrough = codes.stream().filter("ok"::equals).count();
    long refusedEvents =
        events.stream()
            .filter(e -> e.path("decision").asText().equals("denied:rate_limited"))
            .filter(e -> e.path("reason").asText().contains("quotas.newSessionsPerMinute"))
            .count();

    // The sessions earlier cases opened in the last minute count too: at most 30 get through.
    evidence.check(
        "rotating_sessions_meet_the_workload_ceiling",
        "issue 66 (a new session id lifts no limit)",
        map(
            "writes_let_through_at_most_30",
            true,
            "at_least_10_refused",
            true,
            "every_refusal_names_quotas.newSessionsPerMinute",
            true,
            "backend_operations_equal_writes_let_through",
            true),
        map(
            "writes_let_through_at_most_30",
            letThrough <= 30 && letThrough >= 25,
            "at_least_10_refused",
            40 - letThrough >= 10,
            "every_refusal_names_quotas.newSessionsPerMinute",
            codes.stream().filter(c -> !"ok".equals(c)).allMatch("rate_limited"::equals)
                && refusedEvents == 40 - letThrough,
            "backend_operations_equal_writes_let_through",
            stack.operationsPerformed(RESTART) - operations == letThrough),
        events);
  }
}
