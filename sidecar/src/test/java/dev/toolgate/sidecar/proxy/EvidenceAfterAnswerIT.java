package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.demo.DemoBackend;
import dev.toolgate.demo.DemoBackendOptions;
import dev.toolgate.policy.idempotency.IntentFingerprint;
import dev.toolgate.sidecar.Sidecar;
import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.evidence.EventSink;
import dev.toolgate.sidecar.state.Stores;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An answered attempt's evidence is recorded after the answer is written to the agent, so the agent
 * never waits for it. The sink here holds the event loop when the {@code forwarded} event comes:
 * had the event come first, the answer would wait behind it.
 */
class EvidenceAfterAnswerIT {

  private static final Duration HELD_AT_MOST = Duration.ofSeconds(10);

  @TempDir Path dir;
  private final Vertx vertx = Vertx.vertx(Sidecar.vertxOptions());
  private final HttpClient http = HttpClient.newHttpClient();
  private final HoldingSink sink = new HoldingSink();
  private DemoBackend backend;
  private HttpServer front;

  /** Holds the thread that hands over a {@code forwarded} event until the test lets it go. */
  private static final class HoldingSink implements EventSink {
    final CompletableFuture<AttemptEvent> forwarded = new CompletableFuture<>();
    final CompletableFuture<Void> release = new CompletableFuture<>();

    @Override
    public void accept(AttemptEvent event) {
      if ("forwarded".equals(event.decision())) {
        forwarded.complete(event);
        release.completeOnTimeout(null, HELD_AT_MOST.toMillis(), TimeUnit.MILLISECONDS).join();
      }
    }

    @Override
    public void audit(JsonObject record) {}
  }

  @BeforeEach
  void start() throws Exception {
    backend = DemoBackend.start(vertx, DemoBackendOptions.ephemeral()).await(10, TimeUnit.SECONDS);
    front =
        SidecarFixture.proxy(
            vertx, dir, backend, "sharedState: {mode: local}\n", sink, Stores.local());
  }

  @AfterEach
  void stop() throws Exception {
    sink.release.complete(null);
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  void answersTheAgentBeforeItsAttemptIsRecorded() throws Exception {
    String call =
        SidecarFixture.toolCall(
            1, "get_deployment_job", new JsonObject().put("job_id", "j1").encode(), null);
    CompletableFuture<HttpResponse<String>> answer =
        http.sendAsync(
            SidecarFixture.toolCallRequest(front.actualPort(), "get_deployment_job", call),
            HttpResponse.BodyHandlers.ofString());

    HttpResponse<String> r = answer.get(HELD_AT_MOST.toSeconds() / 2, TimeUnit.SECONDS);

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(r.body()).getJsonObject("result").getBoolean("isError")).isFalse();
    AttemptEvent event =
        await("the attempt's event, once the answer is out")
            .atMost(Duration.ofSeconds(5))
            .until(() -> sink.forwarded.getNow(null), e -> e != null);
    assertThat(event.tool()).isEqualTo("get_deployment_job");
    assertThat(event.result()).isEqualTo("success");
    assertThat(event.intentId())
        .as("the identity derived after the request went upstream")
        .startsWith(IntentFingerprint.DERIVED_PREFIX);
    assertThat(sink.release).as("the event loop is still held by the sink").isNotDone();
  }
}
