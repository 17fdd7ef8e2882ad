package dev.toolgate.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The settings per tool — answer format and service time — over real loopback HTTP, as the
 * benchmark sets them: a bad value is refused with the reason, and the one in force is kept.
 */
class ToolSettingsIT {

  private static final String TOOL = "get_deployment_job";

  private final Vertx vertx = Vertx.vertx();
  private final HttpClient client = HttpClient.newHttpClient();
  private DemoBackend backend;
  private String base;

  @BeforeEach
  void start() throws Exception {
    backend =
        DemoBackend.start(vertx, DemoBackendOptions.ephemeral())
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    base = backend.mcpUrl().substring(0, backend.mcpUrl().length() - "/mcp".length());
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(base + path))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> postLatency(String body) throws Exception {
    return post("/latency/" + TOOL, body);
  }

  private HttpResponse<String> call(String tool) throws Exception {
    String message =
        new JsonObject()
            .put("jsonrpc", "2.0")
            .put("id", 7)
            .put("method", "tools/call")
            .put(
                "params",
                new JsonObject()
                    .put("name", tool)
                    .put("arguments", new JsonObject().put("job_id", "j1")))
            .encode();
    return client.send(
        HttpRequest.newBuilder(URI.create(backend.mcpUrl()))
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", DemoServer.SESSIONLESS_VERSION)
            .header("Mcp-Method", "tools/call")
            .header("Mcp-Name", tool)
            .POST(HttpRequest.BodyPublishers.ofString(message))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void answersJsonUntilToldOtherwise() throws Exception {
    HttpResponse<String> answer = call(TOOL);

    assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(new JsonObject(answer.body()).getInteger("id")).isEqualTo(7);
  }

  @Test
  void answersOnAnEventStreamWhenTheToolIsSetToSse() throws Exception {
    assertThat(post("/answers/" + TOOL, "{\"format\":\"sse\"}").statusCode()).isEqualTo(204);

    HttpResponse<String> answer = call(TOOL);

    assertThat(answer.headers().firstValue("Content-Type")).hasValue("text/event-stream");
    String[] events = answer.body().split("\n\n");
    assertThat(events[0]).as("the priming event").contains("retry: ").endsWith("data: ");
    String message = events[events.length - 1];
    assertThat(message).contains("event: message");
    JsonObject json =
        new JsonObject(message.substring(message.indexOf("data: ") + "data: ".length()));
    assertThat(json.getInteger("id")).isEqualTo(7);
    assertThat(json.getJsonObject("result").getBoolean("isError", false)).isFalse();
  }

  @Test
  void appliesTheStarFormatToEveryToolAndForgetsItWhenCleared() throws Exception {
    post("/answers/*", "{\"format\":\"sse\"}");
    assertThat(call(TOOL).headers().firstValue("Content-Type")).hasValue("text/event-stream");

    client.send(
        HttpRequest.newBuilder(URI.create(base + "/faults")).DELETE().build(),
        HttpResponse.BodyHandlers.discarding());

    assertThat(call(TOOL).headers().firstValue("Content-Type")).hasValue("application/json");
  }

  @Test
  void refusesAnUnknownFormatNamingItAndKeepsTheOneInForce() throws Exception {
    post("/answers/" + TOOL, "{\"format\":\"sse\"}");

    HttpResponse<String> refused = post("/answers/" + TOOL, "{\"format\":\"xml\"}");

    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body()).isEqualTo("answer format must be one of json, sse, was 'xml'");
    assertThat(call(TOOL).headers().firstValue("Content-Type")).hasValue("text/event-stream");
  }

  @Test
  void setsTheServiceTimeOfATool() throws Exception {
    assertThat(postLatency("{\"ms\":25}").statusCode()).isEqualTo(204);

    assertThat(backend.faults().latencyOf(TOOL)).isEqualTo(25);
  }

  @Test
  void refusesAServiceTimeThatIsNotAWholeNumberOfMillisecondsAndKeepsTheOneInForce()
      throws Exception {
    postLatency("{\"ms\":25}");

    HttpResponse<String> words = postLatency("{\"ms\":\"slow\"}");
    HttpResponse<String> negative = postLatency("{\"ms\":-1}");
    HttpResponse<String> notJson = postLatency("ms=5");

    assertThat(words.statusCode()).isEqualTo(400);
    assertThat(words.body())
        .isEqualTo("ms must be a whole number of milliseconds, at least 0, was slow");
    assertThat(negative.body())
        .isEqualTo("ms must be a whole number of milliseconds, at least 0, was -1");
    assertThat(notJson.statusCode()).isEqualTo(400);
    assertThat(backend.faults().latencyOf(TOOL)).isEqualTo(25);
  }
}
