package dev.toolgate.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The streams a client can resume are the newest ones: a long run does not keep them all. */
class EventStreamsIT {

  private final Vertx vertx = Vertx.vertx();
  private final HttpClient client = HttpClient.newHttpClient();
  private DemoBackend backend;

  @BeforeEach
  void start() throws Exception {
    backend =
        DemoBackend.start(vertx, DemoBackendOptions.ephemeral())
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    backend.faults().answerFormat("*", AnswerFormat.SSE);
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** A call answered on a stream; returns the stream's last event id. */
  private String call(int id) throws Exception {
    String message =
        new JsonObject()
            .put("jsonrpc", "2.0")
            .put("id", id)
            .put("method", "tools/call")
            .put(
                "params",
                new JsonObject()
                    .put("name", "get_deployment_job")
                    .put("arguments", new JsonObject().put("job_id", "j1")))
            .encode();
    String body =
        client
            .send(
                HttpRequest.newBuilder(URI.create(backend.mcpUrl()))
                    .header("Accept", "application/json, text/event-stream")
                    .header("MCP-Protocol-Version", DemoServer.SESSIONLESS_VERSION)
                    .header("Mcp-Method", "tools/call")
                    .header("Mcp-Name", "get_deployment_job")
                    .POST(HttpRequest.BodyPublishers.ofString(message))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return body.substring(
        body.lastIndexOf("id: ") + 4, body.indexOf('\n', body.lastIndexOf("id: ")));
  }

  private HttpResponse<String> resume(String lastEventId) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(backend.mcpUrl()))
            .header("Accept", "text/event-stream")
            .header("Last-Event-ID", lastEventId)
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void keepsTheNewestStreamsResumableAndForgetsTheOldest() throws Exception {
    List<String> lastIds = new ArrayList<>();
    for (int i = 0; i <= DemoServer.RESUMABLE_STREAMS; i++) {
      lastIds.add(call(i));
    }
    String first = lastIds.get(0);
    String second = lastIds.get(1);

    assertThat(resume(first).statusCode()).as("the oldest, one beyond the bound").isEqualTo(404);
    HttpResponse<String> resumed = resume(second.substring(0, second.indexOf(':')) + ":0");
    assertThat(resumed.statusCode()).isEqualTo(200);
    assertThat(resumed.body()).contains("id: " + second, "\"id\":1");
  }
}
