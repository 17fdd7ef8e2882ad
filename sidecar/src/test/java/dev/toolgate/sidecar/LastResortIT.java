package dev.toolgate.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Whatever a handler throws, now or later, the caller gets a 500 with a correlation id. */
class LastResortIT {

  private final Vertx vertx = Vertx.vertx();
  private final LastResort lastResort = LastResort.admin();
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private HttpResponse<String> get(HttpServer server) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + "/x"))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpServer serve(io.vertx.core.Handler<io.vertx.core.http.HttpServerRequest> handler)
      throws Exception {
    return vertx
        .createHttpServer()
        .requestHandler(handler)
        .listen(0, "127.0.0.1")
        .await(10, TimeUnit.SECONDS);
  }

  @Test
  void aHandlerThatThrowsIsAnswered500WithACorrelationIdAndNotItsMessage() throws Exception {
    HttpServer server =
        serve(
            req ->
                lastResort.guard(
                    req,
                    () -> {
                      throw new ClassCastException("password=hunter2 leaked by a bug");
                    }));

    HttpResponse<String> answer = get(server);

    assertThat(answer.statusCode()).isEqualTo(500);
    assertThat(new JsonObject(answer.body()).getString("correlationId")).matches("err-[0-9a-f]+");
    assertThat(answer.body()).doesNotContain("hunter2").doesNotContain("ClassCast");
  }

  @Test
  void aFailureLaterInTheHandlingIsAnsweredTheSameWay() throws Exception {
    HttpServer server =
        serve(
            req ->
                vertx.setTimer(
                    10, t -> lastResort.fail(req, new IllegalStateException("after a while"))));

    HttpResponse<String> answer = get(server);

    assertThat(answer.statusCode()).isEqualTo(500);
    assertThat(answer.body()).contains("correlationId").doesNotContain("after a while");
  }

  @Test
  void theMcpListenersAnswerIsAJsonRpcInternalErrorNamingTheCorrelationId() throws Exception {
    LastResort mcp = LastResort.mcp();
    HttpServer server =
        serve(
            req ->
                mcp.guard(
                    req,
                    () -> {
                      throw new IllegalStateException("internal detail");
                    }));

    JsonObject answer = new JsonObject(get(server).body());

    assertThat(answer.getJsonObject("error").getInteger("code")).isEqualTo(-32603);
    assertThat(answer.getJsonObject("error").getJsonObject("data").getString("correlationId"))
        .matches("err-[0-9a-f]+");
    assertThat(answer.encode()).doesNotContain("internal detail");
  }
}
