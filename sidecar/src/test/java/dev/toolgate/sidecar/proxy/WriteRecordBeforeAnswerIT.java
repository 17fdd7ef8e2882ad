package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.demo.DemoBackend;
import dev.toolgate.demo.DemoBackendOptions;
import dev.toolgate.policy.idempotency.IdempotencyRecord;
import dev.toolgate.sidecar.Sidecar;
import dev.toolgate.sidecar.evidence.EventSink;
import dev.toolgate.sidecar.state.IdempotencyStore;
import dev.toolgate.sidecar.state.QuotaStore;
import dev.toolgate.sidecar.state.SharedCircuits;
import dev.toolgate.sidecar.state.Stores;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.io.OutputStream;
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
 * A write's answer reaches the agent only once its idempotency record is completed in the store, so
 * a relaunch on another replica finds it replayable, not in flight; a store that does not complete
 * holds the answer no longer than {@link ToolCall#RECORD_WAIT_MS}.
 */
class WriteRecordBeforeAnswerIT {

  private static final String RESTART = "restart_deployment_job";
  private static final String TOOLS =
      "tools:\n  - {name: restart_deployment_job, upstream: deployment-api,"
          + " effect: idempotent_write, idempotency: {keyComponents: [intent_id, /job_id]}}\n";

  @TempDir Path dir;
  private final Vertx vertx = Vertx.vertx(Sidecar.vertxOptions());
  private final HttpClient http = HttpClient.newHttpClient();
  private final HeldStore store = new HeldStore();
  private DemoBackend backend;
  private HttpServer front;

  /**
   * The in-memory store, except that completing a record takes as long as the test says; its future
   * is bound to the calling event loop's context, as the shared store's are.
   */
  private static final class HeldStore implements IdempotencyStore {
    final IdempotencyStore records = IdempotencyStore.inMemory(Stores.IDEMPOTENCY_RECORD_TTL_MS);
    final CompletableFuture<Void> completion = new CompletableFuture<>();
    volatile long completeCalledNanos;

    @Override
    public Future<IdempotencyRecord> begin(
        String key, String argumentsHash, String correlationId, long nowMs) {
      return records.begin(key, argumentsHash, correlationId, nowMs);
    }

    @Override
    public Future<Void> complete(String key, String answer, String operationId, long nowMs) {
      completeCalledNanos = System.nanoTime();
      return records
          .complete(key, answer, operationId, nowMs)
          .compose(v -> Future.fromCompletionStage(completion, Vertx.currentContext()));
    }

    @Override
    public Future<Void> markAmbiguous(String key, String operationId, long nowMs) {
      return records.markAmbiguous(key, operationId, nowMs);
    }

    @Override
    public Future<Void> release(String key) {
      return records.release(key);
    }
  }

  @BeforeEach
  void start() throws Exception {
    backend = DemoBackend.start(vertx, DemoBackendOptions.ephemeral()).await(10, TimeUnit.SECONDS);
    front =
        SidecarFixture.proxy(
            vertx,
            dir,
            backend,
            TOOLS + "sharedState: {mode: local}\n",
            EventSink.jsonLines(OutputStream.nullOutputStream()),
            new Stores(store, QuotaStore.inMemory(), SharedCircuits.none()));
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private CompletableFuture<HttpResponse<String>> write() {
    String call =
        SidecarFixture.toolCall(
            1,
            RESTART,
            new JsonObject().put("job_id", "j1").put("environment", "prod").encode(),
            new JsonObject().put("dev.toolgate/intent-id", "intent-1").encode());
    return http.sendAsync(
        SidecarFixture.toolCallRequest(front.actualPort(), RESTART, call),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void answersAWriteOnlyOnceItsRecordIsCompleted() throws Exception {
    CompletableFuture<HttpResponse<String>> answer = write();
    await("the backend performed the write")
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                backend.ledger().operationsPerformed(RESTART) == 1
                    && store.completeCalledNanos != 0);

    await("the answer held while the record is being completed")
        .during(Duration.ofMillis(200))
        .atMost(Duration.ofSeconds(1))
        .until(() -> !answer.isDone());
    store.completion.complete(null);

    HttpResponse<String> r = answer.get(10, TimeUnit.SECONDS);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(r.body()).getJsonObject("result").getBoolean("isError")).isFalse();
  }

  @Test
  void answersAWriteWhoseRecordIsNotCompletedWhenTheWaitIsOver() throws Exception {
    HttpResponse<String> r = write().get(10, TimeUnit.SECONDS);
    long heldMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - store.completeCalledNanos);

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(r.body()).getJsonObject("result").getBoolean("isError")).isFalse();
    assertThat(heldMs).isGreaterThanOrEqualTo(ToolCall.RECORD_WAIT_MS).isLessThan(5_000);
  }
}
