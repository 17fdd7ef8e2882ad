package dev.toolgate.bench;

import dev.toolgate.policy.idempotency.IdempotencyKeys;
import dev.toolgate.policy.idempotency.IntentFingerprint;
import dev.toolgate.policy.json.CanonicalJson;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What every tool call derives from its arguments on the event loop before it is admitted, as
 * {@code ToolCall} does: their canonical text, the arguments hash (approvals, idempotency records,
 * the breaker's and the fallback's keys) and the intent fingerprint (a derived intent id). The load
 * benchmark's arguments: 1 KiB. Run: see bench/README.md.
 */
public class CallIdentityBench extends JmhSettings {

  private final Map<String, Object> arguments =
      new JsonObject().put("job_id", "j1").put("note", "x".repeat(1000)).getMap();
  private final StringBuilder scratch = new StringBuilder();

  @Benchmark
  public void identity(Blackhole bh) {
    scratch.setLength(0);
    CanonicalJson.appendTo(arguments, scratch);
    String argumentsHash = IdempotencyKeys.argumentsHashOfCanonical(scratch);
    bh.consume(argumentsHash);
    bh.consume(
        IntentFingerprint.ofArgumentsHash(
            "d573599a-f3ff-4429-8129-637d0411d41d", "get_deployment_job", argumentsHash));
  }
}
