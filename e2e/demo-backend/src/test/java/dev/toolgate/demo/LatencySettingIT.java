package dev.toolgate.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The service time set per tool over HTTP: a bad value is refused with the reason, the one in force kept. */
class LatencySettingIT {

  private final Vertx vertx = Vertx.vertx();
  private final HttpClient client = HttpClient.newHttpClient();
  private DemoBackend backend;
  private String base;

  @BeforeEach
  void start() throws Exception {
    backend = DemoBackend.start(vertx, DemoBackendOptions.ephemeral()).toCompletionStage().toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
    base = backend.mcpUrl().substring(0, backend.mcpUrl().length() - "/mcp".length());
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private HttpResponse<String> post(String body) throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create(base + "/latency/get_deployment_job"))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void setsTheServiceTimeOfATool() throws Exception {
    assertThat(post("{\"ms\":25}").statusCode()).isEqualTo(204);

    assertThat(backend.faults().latencyOf("get_deployment_job")).isEqualTo(25);
  }

  @Test
  void refusesAServiceTimeThatIsNotAWholeNumberOfMillisecondsAndKeepsTheOneInForce() throws Exception {
    post("{\"ms\":25}");

    HttpResponse<String> words = post("{\"ms\":\"slow\"}");
    HttpResponse<String> negative = post("{\"ms\":-1}");
    HttpResponse<String> notJson = post("ms=5");

    assertThat(words.statusCode()).isEqualTo(400);
    assertThat(words.body()).isEqualTo("ms must be a whole number of milliseconds, at least 0, was slow");
    assertThat(negative.body()).isEqualTo("ms must be a whole number of milliseconds, at least 0, was -1");
    assertThat(notJson.statusCode()).isEqualTo(400);
    assertThat(backend.faults().latencyOf("get_deployment_job")).isEqualTo(25);
  }
}
