package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The benchmark's framework floor relays over real loopback HTTP, as the benchmark loads it. */
class VertxRelayIT {

  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);

  private final Vertx vertx = Vertx.vertx();
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private HttpServer upstream() throws Exception {
    return vertx
        .createHttpServer()
        .requestHandler(
            req ->
                req.body()
                    .onSuccess(
                        body ->
                            req.response()
                                .setStatusCode(201)
                                .putHeader("mcp-session-id", "s-1")
                                .end(
                                    req.method()
                                        + " "
                                        + req.uri()
                                        + " "
                                        + req.getHeader("mcp-method")
                                        + " "
                                        + body)))
        .listen(0, "127.0.0.1")
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  private int relayTo(String upstream) throws Exception {
    return VertxRelay.start(vertx, 0, URI.create(upstream))
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS)
        .actualPort();
  }

  @Test
  void relaysTheRequestAndTheAnswerWithTheirEndToEndHeaders() throws Exception {
    int relay = relayTo("http://127.0.0.1:" + upstream().actualPort());

    HttpResponse<String> answer =
        client.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + relay + "/mcp?x=1"))
                .timeout(ANSWER_TIMEOUT)
                .header("Mcp-Method", "tools/call")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(answer.statusCode()).isEqualTo(201);
    assertThat(answer.body()).isEqualTo("POST /mcp?x=1 tools/call {\"jsonrpc\":\"2.0\"}");
    assertThat(answer.headers().firstValue("mcp-session-id")).hasValue("s-1");
  }

  @Test
  void answers502WhenTheUpstreamIsUnreachable() throws Exception {
    // Bound but never listening: connections are refused, and no other socket can take the port
    // meanwhile.
    try (Socket reserved = new Socket()) {
      reserved.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int relay = relayTo("http://127.0.0.1:" + reserved.getLocalPort());

      HttpResponse<String> answer =
          client.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + relay + "/mcp"))
                  .timeout(ANSWER_TIMEOUT)
                  .POST(HttpRequest.BodyPublishers.ofString("{}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(answer.statusCode()).isEqualTo(502);
      assertThat(answer.body()).startsWith("upstream unreachable: ");
    }
  }

  @Test
  void refusesAnUpstreamThatIsNotAPlainHttpOrigin() {
    assertThat(VertxRelay.start(vertx, 0, URI.create("https://127.0.0.1:1")).failed()).isTrue();
    assertThat(VertxRelay.start(vertx, 0, URI.create("https://127.0.0.1:1")).cause())
        .hasMessageContaining("--upstream must be http://host:port, got 'https://127.0.0.1:1'");
  }
}
