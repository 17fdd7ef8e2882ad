package dev.toolgate.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.operator.publish.StateApiPublisher;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's publisher against a real state service: it publishes and withdraws; nobody else.
 */
class OperatorPublishesIT {

  static final String SIDECAR = "t-sidecar-0123456789abcdefghijklmnopqrst";
  static final String OPERATOR = "t-operator-0123456789abcdefghijklmnopqr";

  @TempDir Path dir;
  private final Vertx vertx = Vertx.vertx();
  private StateService service;
  private String url;

  @BeforeEach
  void start() throws Exception {
    StateTls.write(dir);
    service =
        StateService.start(
                vertx,
                StateTls.oneMember(dir, "publish"),
                StaticTokens.parse(
                    new JsonObject()
                        .put(
                            "tokens",
                            List.of(
                                new JsonObject()
                                    .put("token", SIDECAR)
                                    .put("namespace", "ops")
                                    .put("workload", "w"),
                                new JsonObject().put("token", OPERATOR).put("publisher", true)))
                        .encode(),
                    "tokens"),
                Clock.systemUTC())
            .await(60, TimeUnit.SECONDS);
    url = "https://localhost:" + service.apiPort();
  }

  @AfterEach
  void stop() throws Exception {
    service.close(vertx).await(30, TimeUnit.SECONDS);
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private HttpResponse<String> read() throws Exception {
    return StateTls.client(dir)
        .send(
            HttpRequest.newBuilder(URI.create(url + "/v1/configs/ops/deployment-tools"))
                .header("Authorization", "Bearer " + SIDECAR)
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private StateApiPublisher publisher(String token) throws Exception {
    return StateApiPublisher.create(
        url,
        Files.readString(dir.resolve("ca.crt")),
        Files.writeString(dir.resolve("token-" + token.hashCode()), token + "\n"));
  }

  @Test
  void theOperatorPublishesAndWithdrawsAndASidecarsTokenCannot() throws Exception {
    publisher(OPERATOR).publish("ops/deployment-tools", "revision: 2\n");
    assertThat(read().body()).isEqualTo("revision: 2\n");

    publisher(SIDECAR).publish("ops/deployment-tools", "revision: 100\n");
    publisher(SIDECAR).withdraw("ops/deployment-tools");
    assertThat(read().body()).as("the sidecar's token changed nothing").isEqualTo("revision: 2\n");

    publisher(OPERATOR).withdraw("ops/deployment-tools");
    assertThat(read().statusCode()).isEqualTo(404);
  }
}
