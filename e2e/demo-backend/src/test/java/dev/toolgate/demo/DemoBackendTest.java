package dev.toolgate.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoBackendTest {

  private final AtomicLong now = new AtomicLong(1_000);
  private final Ledger ledger = new Ledger();
  private final DemoTools tools = new DemoTools(ledger, now::get);
  private final Faults faults = new Faults(now::get);

  private static JsonObject structured(JsonObject result) {
    return result.getJsonObject("structuredContent");
  }

  @Test
  void runsOnAVertxThatCreatesNoFileCacheDirectory(@TempDir Path base) throws Exception {
    VertxOptions options = DemoBackend.vertxOptions();
    options.getFileSystemOptions().setFileCacheDir(base.resolve("vertx-cache").toString());

    Vertx vertx = Vertx.vertx(options);
    try (Stream<Path> files = Files.list(base)) {
      assertThat(files).isEmpty();
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void runsItsEventLoopsOnEpollOnLinuxX8664AndOnNioElsewhere() throws Exception {
    boolean linuxX8664 =
        "Linux".equals(System.getProperty("os.name"))
            && "amd64".equals(System.getProperty("os.arch"));

    Vertx vertx = Vertx.vertx(DemoBackend.vertxOptions());
    try {
      assertThat(vertx.isNativeTransportEnabled()).isEqualTo(linuxX8664);
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void createsOneOperationPerIdempotencyKey() {
    JsonObject args = new JsonObject().put("job_id", "j1").put("environment", "prod");

    JsonObject first = structured(tools.perform("restart_deployment_job", args, "key-1"));
    JsonObject again = structured(tools.perform("restart_deployment_job", args, "key-1"));
    JsonObject other = structured(tools.perform("restart_deployment_job", args, "key-2"));

    assertThat(again.getString("operation_id")).isEqualTo(first.getString("operation_id"));
    assertThat(again.getBoolean("replayed")).isTrue();
    assertThat(other.getString("operation_id")).isNotEqualTo(first.getString("operation_id"));
    assertThat(ledger.operationsPerformed("restart_deployment_job")).isEqualTo(2);
  }

  @Test
  void findsAnOperationByItsKeyAndSaysWhenThereIsNone() {
    tools.perform(
        "restart_deployment_job",
        new JsonObject().put("job_id", "j1").put("environment", "prod"),
        "key-9");

    JsonObject found =
        structured(
            tools.perform(
                "get_operation_by_key", new JsonObject().put("idempotency_key", "key-9"), null));
    JsonObject missing =
        structured(
            tools.perform(
                "get_operation_by_key", new JsonObject().put("idempotency_key", "nope"), null));

    assertThat(found.getBoolean("found")).isTrue();
    assertThat(found.getJsonObject("operation").getString("job_id")).isEqualTo("j1");
    assertThat(missing.getBoolean("found")).isFalse();
  }

  @Test
  void refusesMissingArgumentsBeforeAnyWork() {
    assertThatThrownBy(
            () -> tools.validate("restart_deployment_job", new JsonObject().put("job_id", "j")))
        .hasMessage("argument 'environment' is required (a non-empty string)");
    assertThat(ledger.operationsPerformed("restart_deployment_job")).isZero();
  }

  @Test
  void usesUpACountedFaultThenServesNormally() {
    faults.inject("get_deployment_job", Fault.status(503, 2));

    assertThat(faults.take("get_deployment_job"))
        .hasValueSatisfying(f -> assertThat(f.status()).isEqualTo(503));
    assertThat(faults.take("get_deployment_job")).isPresent();
    assertThat(faults.take("get_deployment_job")).isEmpty();
  }

  @Test
  void endsATimedFaultWhenItsDurationHasPassed() {
    faults.inject("get_deployment_job", Fault.status(503, 0).lasting(90_000));

    assertThat(faults.take("get_deployment_job")).isPresent();
    now.addAndGet(89_999);
    assertThat(faults.take("get_deployment_job")).isPresent();
    now.addAndGet(1);
    assertThat(faults.take("get_deployment_job")).isEmpty();
  }

  @Test
  void readsFaultsFromJsonAndRefusesBadOnes() {
    Fault fault =
        Fault.fromJson(
            new JsonObject(
                "{\"kind\":\"status\",\"status\":429,\"retryAfterSeconds\":3,\"times\":1}"));

    assertThat(fault).isEqualTo(new Fault(Fault.Kind.STATUS, 429, 3, 1, 0, 0));
    assertThatThrownBy(() -> Fault.fromJson(new JsonObject("{\"kind\":\"explode\"}")))
        .hasMessageStartingWith("unknown fault kind 'explode'");
    assertThatThrownBy(() -> Fault.fromJson(new JsonObject("{\"kind\":\"status\",\"status\":200}")))
        .hasMessage("a status fault needs 'status' in [400, 599], was 200");
  }
}
