package dev.toolgate.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state API as the agent meets it: it shares the network with its sidecar but not the sidecar's
 * token. Without a token, with a wrong one, or with another namespace's, nothing changes a
 * configuration, a counter or an idempotency record, and every refusal says why.
 */
class StateApiIT {

  static final String AGENTS = "t-agents-0123456789abcdefghijklmnopqrstuv";
  static final String OTHER = "t-other-0123456789abcdefghijklmnopqrstuvw";
  static final String OPERATOR = "t-operator-0123456789abcdefghijklmnopqrst";

  @TempDir static Path dir;
  static Vertx vertx;
  static StateService service;
  static HttpClient http;
  static String base;

  @BeforeAll
  static void start() throws Exception {
    StateTls.write(dir);
    Path tokens =
        Files.writeString(
            dir.resolve("tokens.json"),
            new JsonObject()
                .put(
                    "tokens",
                    List.of(
                        new JsonObject()
                            .put("token", AGENTS)
                            .put("namespace", "agents")
                            .put("workload", "ops-assistant"),
                        new JsonObject()
                            .put("token", OTHER)
                            .put("namespace", "other")
                            .put("workload", "ops-assistant"),
                        new JsonObject().put("token", OPERATOR).put("publisher", true)))
                .encode());
    vertx = Vertx.vertx();
    service =
        StateService.start(
                vertx,
                StateTls.oneMember(dir, "state-it"),
                StaticTokens.load(tokens),
                Clock.systemUTC())
            .await(60, TimeUnit.SECONDS);
    http = StateTls.client(dir);
    base = "https://localhost:" + service.apiPort();
  }

  @AfterAll
  static void stop() throws Exception {
    if (service != null) {
      service.close(vertx).await(30, TimeUnit.SECONDS);
    }
    if (vertx != null) {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  static HttpResponse<String> post(String token, String path, JsonObject body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.ofString(body.encode()));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> config(String token, String method, String key, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + "/v1/configs/" + key))
            .timeout(Duration.ofSeconds(10))
            .header("Authorization", "Bearer " + token)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static JsonObject consume(String session, int writeLimit) {
    return new JsonObject()
        .put("session", session)
        .put("agent", "ops-assistant")
        .put("write", true)
        .put(
            "quotas",
            new JsonObject()
                .put("perSession", new JsonObject().put("read", 10).put("write", writeLimit))
                .put("ratePerMinute", 120)
                .put("idleExpirySeconds", 3600));
  }

  static String error(HttpResponse<String> response) {
    return new JsonObject(response.body()).getString("error");
  }

  @Test
  void withoutATokenOrWithAWrongOneEveryCallIsRefusedAndCountsNothing() throws Exception {
    String session = "s-" + UUID.randomUUID();

    HttpResponse<String> none = post(null, "/v1/quotas/consume", consume(session, 1));
    HttpResponse<String> wrong =
        post("t-guessed-0123456789abcdefghijklmnopqrst", "/v1/quotas/consume", consume(session, 1));
    HttpResponse<String> reset =
        post(null, "/v1/quotas/reset", new JsonObject().put("session", session));

    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
    assertThat(error(none)).isEqualTo("a bearer token is required");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(error(wrong)).contains("token refused: the token is not one this service knows");
    assertThat(reset.statusCode()).isEqualTo(401);
    HttpResponse<String> first = post(AGENTS, "/v1/quotas/consume", consume(session, 1));
    assertThat(new JsonObject(first.body()).getBoolean("allowed"))
        .as(
            "the refused calls counted nothing: the one write allowed is still free; "
                + first.body())
        .isTrue();
    HttpResponse<String> second = post(AGENTS, "/v1/quotas/consume", consume(session, 1));
    assertThat(new JsonObject(second.body()).getString("code")).isEqualTo("QUOTA_EXCEEDED");
  }

  @Test
  void anotherNamespacesTokenNeitherResetsNorUsesThisNamespacesCounters() throws Exception {
    String session = "shared-name-" + UUID.randomUUID();
    assertThat(
            new JsonObject(post(AGENTS, "/v1/quotas/consume", consume(session, 1)).body())
                .getBoolean("allowed"))
        .isTrue();

    HttpResponse<String> otherReset =
        post(OTHER, "/v1/quotas/reset", new JsonObject().put("session", session));
    HttpResponse<String> otherUse = post(OTHER, "/v1/quotas/consume", consume(session, 1));

    assertThat(otherReset.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(otherUse.body()).getBoolean("allowed"))
        .as("the other namespace counts its own session of that name")
        .isTrue();
    assertThat(
            new JsonObject(post(AGENTS, "/v1/quotas/consume", consume(session, 1)).body())
                .getString("code"))
        .as("the other namespace's reset did not touch this one's counter")
        .isEqualTo("QUOTA_EXCEEDED");
  }

  @Test
  void idempotencyRecordsAreScopedByTheTokensNamespace() throws Exception {
    JsonObject begin =
        new JsonObject()
            .put("key", "restart:j1:" + UUID.randomUUID())
            .put("argumentsHash", "h1")
            .put("correlationId", "c1");

    HttpResponse<String> took = post(AGENTS, "/v1/idempotency/begin", begin);
    HttpResponse<String> otherRelease =
        post(OTHER, "/v1/idempotency/release", new JsonObject().put("key", begin.getString("key")));
    HttpResponse<String> again = post(AGENTS, "/v1/idempotency/begin", begin);

    assertThat(new JsonObject(took.body()).getValue("record")).isNull();
    assertThat(otherRelease.statusCode()).as(otherRelease.body()).isEqualTo(200);
    assertThat(new JsonObject(again.body()).getString("record"))
        .as("still in flight: the other namespace released its own key, not this one")
        .contains("IN_FLIGHT");
  }

  @Test
  void onlyThePublisherPublishesAndASidecarReadsItsOwnNamespaceOnly() throws Exception {
    String forged = "revision: 100\n";
    HttpResponse<String> sidecarPut = config(AGENTS, "PUT", "agents/deployment-tools", forged);
    HttpResponse<String> publish =
        config(OPERATOR, "PUT", "agents/deployment-tools", "revision: 3\n");
    HttpResponse<String> read = config(AGENTS, "GET", "agents/deployment-tools", null);
    HttpResponse<String> otherRead = config(OTHER, "GET", "agents/deployment-tools", null);

    assertThat(sidecarPut.statusCode()).isEqualTo(403);
    assertThat(error(sidecarPut)).contains("only the operator publishes configurations");
    assertThat(publish.statusCode()).isEqualTo(204);
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.body()).isEqualTo("revision: 3\n");
    assertThat(otherRead.statusCode()).isEqualTo(403);
    assertThat(error(otherRead)).contains("reads its own namespace's configurations, not agents's");
    HttpResponse<String> unchanged =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/v1/configs/agents/deployment-tools"))
                .header("Authorization", "Bearer " + AGENTS)
                .header("If-None-Match", read.headers().firstValue("ETag").orElseThrow())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(unchanged.statusCode()).isEqualTo(304);
  }

  @Test
  void aBreakerOpeningReachesTheOtherReplicasOfItsNamespaceAndNoOtherNamespace() throws Exception {
    String breaker = "deployment-api/get_deployment_job-" + UUID.randomUUID();
    long now = System.currentTimeMillis();
    HttpResponse<String> opened =
        post(
            AGENTS,
            "/v1/circuits/opened",
            new JsonObject()
                .put("replica", "replica-a")
                .put("breaker", breaker)
                .put("openedAtMs", now)
                .put("untilMs", now + 30_000));
    JsonObject sameNamespace =
        new JsonObject(
            post(AGENTS, "/v1/circuits/news", new JsonObject().put("replica", "replica-b")).body());
    JsonObject itself =
        new JsonObject(
            post(AGENTS, "/v1/circuits/news", new JsonObject().put("replica", "replica-a")).body());
    JsonObject otherNamespace =
        new JsonObject(
            post(OTHER, "/v1/circuits/news", new JsonObject().put("replica", "replica-b")).body());
    HttpResponse<String> foreignLease =
        post(
            OTHER,
            "/v1/circuits/release",
            new JsonObject().put("lease", "agents/" + breaker + "#0"));

    assertThat(opened.statusCode()).isEqualTo(200);
    assertThat(sameNamespace.getJsonObject("open").containsKey(breaker)).isTrue();
    assertThat(itself.getJsonObject("open").containsKey(breaker))
        .as("a replica is not told of its own opening")
        .isFalse();
    assertThat(otherNamespace.getJsonObject("open").containsKey(breaker)).isFalse();
    assertThat(foreignLease.statusCode()).isEqualTo(400);
    assertThat(error(foreignLease)).contains("not one of namespace other's");
  }

  @Test
  void malformedOrOversizedRequestsAreRefusedNamingTheProblem() throws Exception {
    HttpResponse<String> badField =
        post(AGENTS, "/v1/quotas/raise", new JsonObject().put("session", "s").put("reads", "10"));
    HttpResponse<String> huge =
        post(
            AGENTS,
            "/v1/quotas/raise",
            new JsonObject().put("session", "x".repeat(StateServer.MAX_BODY_BYTES + 1)));
    HttpResponse<String> unknown = post(AGENTS, "/v1/anything", new JsonObject());

    assertThat(badField.statusCode()).isEqualTo(400);
    assertThat(error(badField)).contains("reads: must be an integer from 0 to 1000000, was 10");
    assertThat(huge.statusCode()).isEqualTo(413);
    assertThat(unknown.statusCode()).isEqualTo(404);
  }
}
