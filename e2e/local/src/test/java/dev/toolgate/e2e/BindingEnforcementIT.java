package dev.toolgate.e2e;

import static dev.toolgate.e2e.Agent.code;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * What the agent might send or reach to get around the sidecars, tried against two replicas over
 * the state service: the backend itself, a tool the policy does not name, a call it cancels, an SSE
 * answer it resumes. (One approval on both replicas and forty sessions of one workload are in
 * {@link SeedCasesIT}.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BindingEnforcementIT {

  static final String GET = "get_deployment_job";
  static final String UNLISTED = "get_deployment_job_v2";

  private Toolgate stack;
  private Toolgate.Endpoint a;
  private Toolgate.Endpoint b;

  @BeforeAll
  void start() throws Exception {
    Path root = Path.of(System.getProperty("toolgate.root", "../..")).toAbsolutePath().normalize();
    stack = Toolgate.start(root);
    a = stack.replicas().get(0);
    b = stack.replicas().get(1);
  }

  @AfterAll
  void stop() {
    if (stack != null) {
      stack.close();
    }
  }

  @AfterEach
  void clearFaults() throws Exception {
    stack.clearFaults();
    stack.answerFormat(GET, "json");
  }

  @Test
  @Order(1)
  void theBackendGetsTheSidecarsCredentialNeverTheAgentsAndRefusesTheAgentCallingItDirectly()
      throws Exception {
    String credential = stack.upstreamCredential();
    assumeTrue(credential != null, "this target's backend requires no credential");
    long before = stack.callsReceived(GET);

    try (Agent agent = new Agent(b, "Bearer the-agents-own-token")) {
      McpSchema.CallToolResult result = agent.call(GET, Map.of("job_id", "job-auth"));
      assertThat(code(result)).isEqualTo("ok");
    }
    Throwable withoutToken =
        catchThrowable(() -> new Agent(URI.create(stack.backend("/mcp")), null));
    Throwable withItsOwn =
        catchThrowable(
            () -> new Agent(URI.create(stack.backend("/mcp")), "Bearer the-agents-own-token"));

    assertThat(stack.ledger().path("lastAuthorization").path(GET).asText()).isEqualTo(credential);
    assertThat(stack.callsReceived(GET)).isEqualTo(before + 1);
    assertThat(withoutToken).as("the agent calling the backend itself").isNotNull();
    assertThat(withItsOwn).as("with a token of its own").isNotNull();
  }

  @Test
  @Order(2)
  void aCallCancelledInItsBackoffMakesNoSecondAttemptAndGetsNoResult() throws Exception {
    RawAgent agent = new RawAgent(a);
    stack.fault(GET, "{\"kind\":\"status\",\"status\":503,\"times\":1,\"retryAfterSeconds\":1}");
    long before = stack.callsReceived(GET);
    Instant start = Instant.now();

    CompletableFuture<HttpResponse<String>> call =
        agent.postAsync(RawAgent.toolCall(41, GET, "{\"job_id\":\"job-cancel\"}"));
    await().atMost(Duration.ofSeconds(5)).until(() -> stack.callsReceived(GET) == before + 1);
    HttpResponse<String> notification = agent.cancel(41);
    HttpResponse<String> answer = call.get();

    assertThat(notification.statusCode()).isEqualTo(202);
    assertThat(answer.statusCode()).isEqualTo(202);
    assertThat(answer.body()).as("no result for the cancelled request").isEmpty();
    await()
        .during(Duration.ofMillis(1_500))
        .atMost(Duration.ofSeconds(3))
        .until(() -> stack.callsReceived(GET) == before + 1);
    List<String> decisions =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(() -> decisionsSince(start), d -> d.contains("cancelled_by_agent"));
    assertThat(decisions).containsExactly("retried", "cancelled_by_agent");
  }

  /** The decisions of the events of {@code GET} since {@code start}, in order. */
  private List<String> decisionsSince(Instant start) throws Exception {
    return stack.events().stream()
        .filter(e -> GET.equals(e.path("tool").asText()))
        .filter(e -> e.path("decision").isTextual())
        .filter(e -> !Instant.parse(e.path("ts").asText()).isBefore(start))
        .map(e -> e.path("decision").asText())
        .collect(Collectors.toList());
  }

  @Test
  @Order(3)
  void anSseAnswerKeepsItsEventIdThroughTheSidecarAndAResumedStreamReplaysFromIt()
      throws Exception {
    RawAgent agent = new RawAgent(a);
    stack.answerFormat(GET, "sse");

    HttpResponse<String> answer =
        agent.post(RawAgent.toolCall(42, GET, "{\"job_id\":\"job-sse\"}"));

    assertThat(answer.headers().firstValue("Content-Type").orElse(""))
        .contains("text/event-stream");
    List<SseEvent> events = SseEvent.parse(answer.body());
    SseEvent priming = events.get(0);
    SseEvent last = events.get(events.size() - 1);
    assertThat(priming.id()).as("the backend's priming event id").matches(".+:0");
    assertThat(last.id()).as("the answer's event id, the backend's").matches(".+:\\d+");
    assertThat(last.type()).isEqualTo("message");
    assertThat(LocalStack.JSON.readTree(last.data()).path("id").asInt()).isEqualTo(42);

    HttpResponse<String> resumed = agent.resume(priming.id());

    assertThat(resumed.statusCode()).isEqualTo(200);
    List<SseEvent> replayed = SseEvent.parse(resumed.body());
    assertThat(replayed).extracting(SseEvent::id).contains(last.id());
    SseEvent again = replayed.stream().filter(e -> e.id().equals(last.id())).findFirst().get();
    assertThat(LocalStack.JSON.readTree(again.data()).path("id").asInt())
        .as("the agent's id, never the sidecar's")
        .isEqualTo(42);
    assertThat(resumed.body()).doesNotContain("\"tg-");
  }

  @Test
  @Order(4)
  void underDenyAnUnlistedToolIsAbsentFromToolsListAndRefusedOnBothReplicasBeforeTheBackend()
      throws Exception {
    try (Agent before = new Agent(a)) {
      assertThat(before.listTools()).as("allow, the default").contains(UNLISTED);
    }
    stack.writeRevision(2, spec -> spec.put("unlistedTools", "deny"));
    stack.activate(2);
    long received = stack.callsReceived(UNLISTED);

    for (Toolgate.Endpoint replica : List.of(a, b)) {
      try (Agent agent = new Agent(replica)) {
        assertThat(agent.listTools()).contains(GET).doesNotContain(UNLISTED);
        McpSchema.CallToolResult refused = agent.call(UNLISTED, Map.of("job_id", "job-unlisted"));
        assertThat(code(refused)).as(replica.name()).isEqualTo("policy_denied");
      }
    }
    assertThat(stack.callsReceived(UNLISTED)).isEqualTo(received);
  }
}
