package dev.toolgate.bench;

import dev.toolgate.policy.admission.Admission;
import dev.toolgate.policy.breaker.CircuitBreaker;
import dev.toolgate.policy.breaker.Permission;
import dev.toolgate.policy.budget.CallBudget;
import dev.toolgate.policy.idempotency.DuplicateDecision;
import dev.toolgate.policy.idempotency.IdempotencyKeys;
import dev.toolgate.policy.idempotency.KeyInputs;
import dev.toolgate.policy.model.Approval;
import dev.toolgate.policy.model.BreakerPolicy;
import dev.toolgate.policy.model.Budget;
import dev.toolgate.policy.model.Effect;
import dev.toolgate.policy.model.IdempotencyPolicy;
import dev.toolgate.policy.model.Quotas;
import dev.toolgate.policy.model.SessionQuota;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.quota.QuotaRules;
import dev.toolgate.policy.quota.Usage;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The pure decisions of one call's admission, as the sidecar makes them on the event loop: kill
 * switch and approval, quota check-and-count, breaker permission and outcome, idempotency key and
 * record decision, budget. Run: see bench/README.md.
 */
public class AdmissionBench extends JmhSettings {

  private final ToolRule read =
      new ToolRule(
          "get_deployment_job",
          "api",
          Effect.READ_ONLY,
          null,
          BreakerPolicy.DEFAULT,
          Approval.NONE,
          null);
  private final ToolRule write =
      new ToolRule(
          "restart_deployment_job",
          "api",
          Effect.IDEMPOTENT_WRITE,
          null,
          null,
          Approval.HUMAN_REQUIRED,
          new IdempotencyPolicy(
              List.of("intent_id", "/job_id", "/environment", "approval_id"), null));
  private final Quotas quotas =
      new Quotas(new SessionQuota(1_000_000_000, 1_000_000_000), null, 1_000_000_000, null, null);
  private final CircuitBreaker breaker = new CircuitBreaker(BreakerPolicy.DEFAULT, t -> {});
  private final Map<String, Object> args = Map.of("job_id", "j-42", "environment", "prod");
  private Usage usage;
  private long now = 1_700_000_000_000L;

  @Benchmark
  public void readAdmission(Blackhole bh) {
    now += 1;
    bh.consume(Admission.decide(read, false, Admission.ApprovalStatus.NONE));
    QuotaRules.Outcome quota = QuotaRules.session(usage, false, quotas, now);
    usage = quota.next();
    bh.consume(quota.verdict());
    Permission permission = breaker.tryAcquire(now);
    bh.consume(CallBudget.plan(Budget.DEFAULT, OptionalLong.empty(), now).attemptTimeout(now));
    breaker.onResult(permission, now, false, 3);
  }

  @Benchmark
  public void writeAdmission(Blackhole bh) {
    now += 1;
    bh.consume(Admission.decide(write, false, Admission.ApprovalStatus.VALID));
    QuotaRules.Outcome quota = QuotaRules.session(usage, true, quotas, now);
    usage = quota.next();
    bh.consume(quota.verdict());
    IdempotencyKeys.Derivation key =
        IdempotencyKeys.derive(
            write.idempotency(),
            new KeyInputs(write.name(), args, "intent-1", "ap-1", "session-1"));
    String argumentsHash = IdempotencyKeys.argumentsHash(args);
    bh.consume(key.key());
    bh.consume(DuplicateDecision.of(null, argumentsHash));
    bh.consume(CallBudget.plan(Budget.DEFAULT, OptionalLong.of(12_000), now).attemptTimeout(now));
  }
}
