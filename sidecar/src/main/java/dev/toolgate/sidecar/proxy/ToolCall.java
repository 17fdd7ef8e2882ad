package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.admission.Admission;
import dev.toolgate.policy.admission.AdmissionStep;
import dev.toolgate.policy.budget.CallBudget;
import dev.toolgate.policy.model.Approval;
import dev.toolgate.policy.model.Fallback;
import dev.toolgate.policy.model.Mode;
import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.outcome.AgentCode;
import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.policy.outcome.Wording;
import dev.toolgate.sidecar.config.LoadedConfig;
import dev.toolgate.sidecar.evidence.Decision;
import dev.toolgate.sidecar.metrics.ToolgateMetrics;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

/**
 * One tool call through the policy (DESIGN section 3), as a pipeline of named steps: its identity
 * ({@link CallIdentity}), the admission steps in the order {@link AdmissionStep#order} gives —
 * policy, quota ({@link QuotaBlock}), breaker ({@link BreakerGate}), then an idempotent write's
 * record ({@link IdempotentWrite}) or a shared read ({@link SharedRead}) — then bounded attempts
 * ({@link AttemptLoop}), or the relayed attempt of shadow mode ({@link ShadowCall}), and one event
 * per attempt ({@link CallEvidence}). This class runs the steps and ends the call; confined to the
 * agent connection's event loop.
 */
final class ToolCall {

  /**
   * How long a write's answer waits for its idempotency record to be completed in the shared state,
   * so that a relaunch on another replica finds it completed (replayed) rather than still in
   * flight; beyond this the agent is answered anyway (a relaunch meanwhile is refused, not run).
   */
  static final long RECORD_WAIT_MS = 500;

  private final CallServices s;
  private final LoadedConfig loaded;
  private final Policy policy;
  private final ToolRule rule;
  private final Mode mode;
  private final String upstream;
  private final String toolLabel;
  private final CallIdentity id;
  private final CallBudget budget;
  private final BreakerGate gate;
  private final CallApproval approval;
  private final CallEvidence evidence;
  private final AttemptLoop attempts;
  private final IdempotentWrite write;
  private final SharedRead shared;
  private ToolCallContext ctx;
  private boolean done;
  private boolean cancelledByAgent;
  private final String cancelKey;
  private final Context context;

  ToolCall(
      CallServices s,
      HttpServerRequest req,
      LoadedConfig loaded,
      ToolCallContext ctx,
      String tool,
      HeldBodies.Hold held) {
    this.s = s;
    this.loaded = loaded;
    this.ctx = ctx;
    this.policy = loaded.config().policy();
    this.upstream = ctx.route().name();
    this.rule = policy.rule(upstream, tool);
    this.mode = policy.modeOf(rule);
    this.toolLabel = policy.names(upstream, tool) ? tool : ToolgateMetrics.UNLISTED_TOOL;
    this.id =
        new CallIdentity(
            s,
            req,
            ctx.message().getJsonObject("params"),
            tool,
            policy.intentWindowSeconds() * 1000L);
    this.budget = CallBudget.plan(policy.budget(), id.agentRemainingMs(), id.arrivedMs());
    this.gate =
        new BreakerGate(
            s,
            rule,
            upstream,
            () -> upstream + "/" + tool + "/" + id.argumentsHash(),
            2 * policy.budget().transportMs());
    this.approval =
        rule.approval() == Approval.HUMAN_REQUIRED
            ? new CallApproval(s, id, loaded.approvalTokens())
            : null;
    this.evidence =
        new CallEvidence(
            s, id, loaded, ctx.correlationId(), upstream, toolLabel, mode, gate, approval);
    this.attempts = new AttemptLoop(this);
    this.write =
        rule.effect().isWrite() && rule.idempotency() != null ? new IdempotentWrite(this) : null;
    this.shared = rule.shareConcurrentCalls() ? new SharedRead(this) : null;
    if (rule.breaker() != null
        && rule.breaker().fallback() == Fallback.READ_ONLY_DEGRADED_RESPONSE) {
      ctx.reply().labelUpstreamAnswers(BreakerGate.EVIDENCE_FRESH);
    }
    this.cancelKey = IdRegistry.clientIdKey(ctx.scope(), ctx.clientId());
    this.context = s.vertx().getOrCreateContext();
    s.calls().put(cancelKey, this);
    req.response()
        .endHandler(
            v -> {
              s.calls().remove(cancelKey, this);
              held.close();
            });
    req.response().closeHandler(v -> agentGone());
  }

  /** Whether the policy serves an unlisted tool, then the kill switch and the approval. */
  Admission.Decision policyDecision() {
    if (policy.refusesUnlisted(upstream, id.tool())) {
      return Admission.unlistedDenied(id.tool(), upstream);
    }
    return Admission.decide(
        rule,
        policy.killSwitch().blockWrites(),
        approval == null ? Admission.ApprovalStatus.NONE : approval.status());
  }

  void run() {
    if (mode == Mode.SHADOW) {
      ShadowCall.run(this);
      return;
    }
    CallAdmission.run(this);
  }

  /** Every step let the call through: the approval is spent on its operation, then attempts run. */
  void admitted() {
    if (approval == null) {
      attempts.start();
      return;
    }
    String key = ctx.idempotencyKey();
    approval
        .spendOn(key != null ? key : ctx.correlationId())
        .onComplete(
            spent -> {
              if (spent.succeeded() && spent.result()) {
                attempts.start();
                return;
              }
              if (key != null) {
                s.idempotency().release(key);
              }
              if (spent.failed()) {
                deny(
                    AgentCode.POLICY_DENIED,
                    "the shared state cannot say whether approval "
                        + approval.approvalId()
                        + " was used: "
                        + spent.cause().getMessage(),
                    null);
              } else {
                deny(
                    AgentCode.APPROVAL_REQUIRED,
                    Wording.approvalSpent(approval.approvalId()),
                    null);
              }
            });
  }

  // ---- the end of the call --------------------------------------------------------------------

  /**
   * Answers the agent with a refusal: the call never reaches (or no longer reaches) the backend.
   */
  void deny(AgentCode code, String reason, JsonObject details) {
    if (cancelledByAgent) {
      return;
    }
    finish();
    gate.release();
    JsonObject d = details == null ? new JsonObject() : details;
    ctx.reply().error(code, reason, d.put("tool", id.tool()));
    s.metrics().denial(upstream, toolLabel, code.wireName());
    evidence.called(ResultClass.POLICY_DENIED);
    evidence.entry(Decision.DENIED).denied(code).reason(reason).write();
    if (shared != null) {
      shared.share(ctx.reply().lastAnswer());
    }
  }

  /** The call is over: no retry may start, and a late agent disconnect changes nothing. */
  void finish() {
    done = true;
    s.calls().remove(cancelKey, this);
  }

  /**
   * The agent's {@code notifications/cancelled} for this call: no further attempt, the one running
   * cancelled upstream, no result sent. A call still being admitted ends at its next step; one in
   * backoff ends here, with its event.
   */
  void cancelByAgent() {
    if (!context.isEventLoopContext() || Vertx.currentContext() != context) {
      context.runOnContext(v -> cancelByAgent());
      return;
    }
    if (done || cancelledByAgent) {
      return;
    }
    cancelledByAgent = true;
    ctx.reply().withdraw();
    if (!attempts.cancelByAgent()) {
      // In backoff, or still being admitted (whose next step then finds the call done).
      finishCancelled();
    }
  }

  /** The call ends as cancelled, with no attempt running: its one event. */
  private void finishCancelled() {
    finish();
    gate.release();
    if (write != null && ctx.idempotencyKey() != null) {
      s.idempotency().release(ctx.idempotencyKey());
    }
    evidence.called(ResultClass.CANCELLED);
    evidence
        .entry(Decision.CANCELLED_BY_AGENT)
        .result(ResultClass.CANCELLED)
        .reason("notifications/cancelled")
        .write();
  }

  boolean cancelledByAgent() {
    return cancelledByAgent;
  }

  boolean done() {
    return done;
  }

  private void agentGone() {
    s.calls().remove(cancelKey, this);
    if (done) {
      return;
    }
    attempts.agentGone();
    if (shared != null) {
      shared.abandon();
    }
  }

  // ---- what the steps share -------------------------------------------------------------------

  CallServices services() {
    return s;
  }

  ToolCallContext context() {
    return ctx;
  }

  /** The write's key from now on, in the context and in the evidence. */
  void idempotencyKey(String key) {
    ctx = ctx.withIdempotencyKey(key);
    evidence.idempotencyKey(key);
  }

  Policy policy() {
    return policy;
  }

  ToolRule rule() {
    return rule;
  }

  String upstream() {
    return upstream;
  }

  String toolLabel() {
    return toolLabel;
  }

  CallIdentity identity() {
    return id;
  }

  CallBudget budget() {
    return budget;
  }

  BreakerGate gate() {
    return gate;
  }

  /** The id of the approval the call carries, a key component; null without one. */
  String approvalId() {
    return approval == null ? null : approval.approvalId();
  }

  CallEvidence evidence() {
    return evidence;
  }

  AttemptLoop attempts() {
    return attempts;
  }

  /** The idempotent write's step, or null for other calls. */
  IdempotentWrite write() {
    return write;
  }

  /** The shared read's step, or null for other calls. */
  SharedRead shared() {
    return shared;
  }

  String agentId() {
    return loaded.config().agent().id();
  }
}
