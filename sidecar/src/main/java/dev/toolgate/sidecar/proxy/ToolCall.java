package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.admission.Admission;
import dev.toolgate.policy.admission.Admission.ApprovalStatus;
import dev.toolgate.policy.approval.ApprovalCheck;
import dev.toolgate.policy.approval.ApprovalClaims;
import dev.toolgate.policy.budget.CallBudget;
import dev.toolgate.policy.budget.TimeoutLayer;
import dev.toolgate.policy.idempotency.DuplicateDecision;
import dev.toolgate.policy.idempotency.IdempotencyKeys;
import dev.toolgate.policy.idempotency.IdempotencyRecord;
import dev.toolgate.policy.idempotency.IntentFingerprint;
import dev.toolgate.policy.idempotency.KeyInputs;
import dev.toolgate.policy.json.CanonicalJson;
import dev.toolgate.policy.model.Approval;
import dev.toolgate.policy.model.Mode;
import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.outcome.AgentCode;
import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.policy.quota.QuotaVerdict;
import dev.toolgate.policy.retry.RetryDecider;
import dev.toolgate.policy.retry.RetryDecision;
import dev.toolgate.sidecar.approval.ApprovalTokens;
import dev.toolgate.sidecar.approval.InvalidApprovalException;
import dev.toolgate.sidecar.config.LoadedConfig;
import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.evidence.IsoInstant;
import dev.toolgate.sidecar.mcp.McpHeaders;
import dev.toolgate.sidecar.mcp.OperationId;
import dev.toolgate.sidecar.metrics.ToolgateMetrics;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * One tool call through the policy (DESIGN section 3): identify, admit (kill switch, approval,
 * idempotency), run bounded attempts with retries where safe, look up an ambiguous write, answer
 * the agent once, and leave one event per attempt. Confined to the agent connection's event loop.
 */
final class ToolCall {

  /** Shadow mode's only bound: a safety net, not a policy. */
  static final long SHADOW_CEILING_MS = 600_000;

  /** Per event-loop thread; a buffer grown past this by huge arguments is not kept. */
  private static final ThreadLocal<StringBuilder> CANONICAL_SCRATCH =
      ThreadLocal.withInitial(() -> new StringBuilder(4096));

  private static final int MAX_KEPT_SCRATCH = 64 * 1024;

  /**
   * How long a write's answer waits for its idempotency record to be completed in the shared state,
   * so that a relaunch on another replica finds it completed (replayed) rather than still in
   * flight; beyond this the agent is answered anyway (a relaunch meanwhile is refused, not run).
   */
  static final long RECORD_WAIT_MS = 500;

  private final CallServices s;
  private final HttpServerRequest req;
  private final LoadedConfig loaded;
  private final Policy policy;
  private final ToolRule rule;
  private final Mode mode;
  private final String tool;
  private final String toolLabel;
  private final String upstream;
  private final JsonObject params;
  private final Map<String, Object> args;
  private final String conversationId;
  private final String sessionKey;
  private final long arrivedMs;

  /**
   * SHA-256 of the arguments' canonical text: binds approvals and idempotency records, keys
   * fallbacks.
   */
  private String argumentsHash;

  private String intentId;
  private final CallBudget budget;
  private ToolCallContext ctx;
  private ApprovalClaims approval;
  private Attempt current;
  private long retryTimer = -1;
  private boolean done;
  private String shareKey;
  private final BreakerGate gate;

  ToolCall(
      CallServices s,
      HttpServerRequest req,
      LoadedConfig loaded,
      ToolCallContext ctx,
      String tool) {
    this.s = s;
    this.req = req;
    this.loaded = loaded;
    this.ctx = ctx;
    this.policy = loaded.config().policy();
    this.upstream = ctx.route().name();
    this.tool = tool;
    this.rule = policy.rule(upstream, tool);
    this.mode = policy.modeOf(rule);
    this.toolLabel = policy.names(upstream, tool) ? tool : ToolgateMetrics.UNLISTED_TOOL;
    this.params = ctx.message().getJsonObject("params");
    JsonObject arguments =
        params.getValue("arguments") instanceof JsonObject a ? a : new JsonObject();
    this.args = arguments.getMap();
    this.conversationId =
        identity(ToolCallContext.META_CONVERSATION_ID, ToolCallContext.HEADER_CONVERSATION_ID);
    String session = req.getHeader(McpHeaders.SESSION_ID);
    if (session == null) {
      session = identity(ToolCallContext.META_SESSION_ID, ToolCallContext.HEADER_SESSION_ID);
    }
    this.sessionKey = session == null ? "pod" : session;
    this.arrivedMs = s.clock().millis();
    this.budget = CallBudget.plan(policy.budget(), agentRemainingMs(), arrivedMs);
    this.gate =
        new BreakerGate(
            s,
            rule,
            upstream,
            () -> upstream + "/" + tool + "/" + argumentsHash(),
            2 * policy.budget().transportMs());
  }

  // ---- identity -------------------------------------------------------------------------------

  /**
   * Derives the call's identity once: the arguments' canonical text, written in this thread's
   * scratch buffer and hashed, and the intent id, given or derived from that hash. A call whose
   * rule needs it first (an approval, an idempotency key, a shared call, a cached fallback) derives
   * it then; any other call right after its first attempt is written upstream, while the backend
   * works.
   */
  private void identify() {
    if (argumentsHash != null) {
      return;
    }
    StringBuilder canonicalArguments = CANONICAL_SCRATCH.get();
    canonicalArguments.setLength(0);
    CanonicalJson.appendTo(args, canonicalArguments);
    argumentsHash = IdempotencyKeys.argumentsHashOfCanonical(canonicalArguments);
    if (canonicalArguments.capacity() > MAX_KEPT_SCRATCH) {
      CANONICAL_SCRATCH.remove();
    }
    String given = identity(ToolCallContext.META_INTENT_ID, ToolCallContext.HEADER_INTENT_ID);
    intentId =
        given != null
            ? given
            : s.intents()
                .intentFor(
                    IntentFingerprint.ofArgumentsHash(sessionKey, tool, argumentsHash),
                    arrivedMs,
                    policy.intentWindowSeconds() * 1000L);
  }

  private String argumentsHash() {
    identify();
    return argumentsHash;
  }

  private String intentId() {
    identify();
    return intentId;
  }

  // ---- the call -------------------------------------------------------------------------------

  void run() {
    req.response().closeHandler(v -> agentGone());
    if (mode == Mode.SHADOW) {
      runShadow();
      return;
    }
    Admission.Decision admission =
        Admission.decide(rule, policy.killSwitch().blockWrites(), approvalStatus());
    if (!admission.admitted()) {
      deny(admission.code(), String.join("; ", admission.reasons()) + hint(admission.code()), null);
      return;
    }
    s.quotas()
        .consume(
            sessionKey, agentId(), rule.effect().isWrite(), policy.quotas(), s.clock().millis())
        .onSuccess(
            verdict -> {
              if (!verdict.allowed()) {
                quotaBlocked(verdict);
              } else {
                gate.admit(this::deny)
                    .onSuccess(
                        admitted -> {
                          if (admitted) {
                            proceed();
                          }
                        });
              }
            })
        .onFailure(
            e ->
                deny(
                    AgentCode.POLICY_DENIED,
                    "the quota state is unavailable: " + e.getMessage(),
                    null));
  }

  private void proceed() {
    if (rule.effect().isWrite() && rule.idempotency() != null) {
      withIdempotency();
    } else if (rule.shareConcurrentCalls()) {
      shared();
    } else if (consumeApproval(ctx.correlationId())) {
      startAttempts();
    }
  }

  // ---- quotas and breaker ---------------------------------------------------------------------

  private String agentId() {
    return loaded.config().agent().id();
  }

  private void quotaBlocked(QuotaVerdict verdict) {
    s.metrics().quotaBlock(verdict.limitName());
    String how =
        " An administrator can raise it: toolgate-sidecar quota raise --session "
            + sessionKey
            + (rule.effect().isWrite() ? " --writes N" : " --reads N")
            + " (or POST /admin/quotas/raise).";
    deny(
        verdict.code(),
        verdict.explain() + "." + how,
        new JsonObject()
            .put("limit", verdict.limitName())
            .put("value", verdict.limit())
            .put("used", verdict.used())
            .put("session", sessionKey));
    JsonObject record =
        new JsonObject()
            .put("ts", IsoInstant.format(s.clock().instant()))
            .put("event", "quota_block")
            .put("correlationId", ctx.correlationId())
            .put("session", sessionKey)
            .put("agent", agentId())
            .put("tool", tool)
            .put("effect", rule.effect().wireName())
            .put("limit", verdict.limitName())
            .put("value", verdict.limit())
            .put("used", verdict.used())
            .put("lastCalls", s.audit().lastCalls(sessionKey));
    s.events().audit(record);
    var notify = policy.quotas().notification();
    if (rule.effect().isWrite() && notify != null && notify.webhookUrl() != null) {
      s.notifier().send(notify, record.copy().put("message", verdict.explain()));
    }
  }

  // ---- admission ------------------------------------------------------------------------------

  private ApprovalStatus approvalStatus() {
    if (rule.approval() != Approval.HUMAN_REQUIRED) {
      return ApprovalStatus.NONE;
    }
    String token = identity(ToolCallContext.META_APPROVAL, ToolCallContext.HEADER_APPROVAL);
    if (token == null) {
      return ApprovalStatus.NONE;
    }
    ApprovalTokens keys = loaded.approvalTokens();
    if (keys == null) {
      return ApprovalStatus.refused("no approval key is configured on this sidecar");
    }
    try {
      ApprovalClaims claims = keys.verify(token);
      String refusal =
          ApprovalCheck.refusal(
              claims, tool, argumentsHash(), s.clock().millis() / 1000, id -> false);
      if (refusal != null) {
        return ApprovalStatus.refused(refusal);
      }
      approval = claims;
      return ApprovalStatus.VALID;
    } catch (InvalidApprovalException e) {
      return ApprovalStatus.refused(e.getMessage());
    }
  }

  /** Spends the approval on this operation; refuses the call if it was spent on another. */
  private boolean consumeApproval(String operation) {
    if (approval == null) {
      return true;
    }
    long now = s.clock().millis() / 1000;
    if (s.usedApprovals()
        .consume(approval.approvalId(), operation, approval.expiresAtSeconds(), now)) {
      return true;
    }
    deny(
        AgentCode.APPROVAL_REQUIRED,
        "the approval "
            + approval.approvalId()
            + " was already used for another operation (approvals are single-use)"
            + hint(AgentCode.APPROVAL_REQUIRED),
        null);
    return false;
  }

  private void withIdempotency() {
    IdempotencyKeys.Derivation key =
        IdempotencyKeys.derive(
            rule.idempotency(),
            new KeyInputs(
                tool,
                args,
                intentId(),
                approval == null ? null : approval.approvalId(),
                sessionKey));
    if (!key.derived()) {
      deny(
          AgentCode.POLICY_DENIED,
          "the idempotency key of " + tool + " cannot be derived: missing " + key.missing(),
          null);
      return;
    }
    ctx = ctx.withIdempotencyKey(key.key());
    s.idempotency()
        .begin(key.key(), argumentsHash(), ctx.correlationId(), s.clock().millis())
        .onSuccess(
            existing -> {
              DuplicateDecision d = DuplicateDecision.of(existing, argumentsHash());
              switch (d.verdict()) {
                case PROCEED -> {
                  if (consumeApproval(key.key())) {
                    startAttempts();
                  } else {
                    s.idempotency().release(key.key());
                  }
                }
                case REPLAY -> replay(existing);
                case DUPLICATE_IN_FLIGHT ->
                    deny(
                        AgentCode.DUPLICATE_IN_FLIGHT,
                        d.reason()
                            + "; wait for it: once it completes, the same call is answered from it",
                        null);
                case AMBIGUOUS ->
                    deny(
                        AgentCode.AMBIGUOUS_WRITE,
                        d.reason() + "; check the operation before deciding to write again",
                        new JsonObject()
                            .put("idempotencyKey", key.key())
                            .put("operationId", existing.operationId()));
                case ARGUMENTS_MISMATCH -> deny(AgentCode.POLICY_DENIED, d.reason(), null);
              }
            })
        .onFailure(
            e ->
                deny(
                    AgentCode.POLICY_DENIED,
                    "the idempotency store is unavailable: " + e.getMessage(),
                    null));
  }

  private void replay(IdempotencyRecord record) {
    gate.release();
    JsonObject answer = new JsonObject(record.answer());
    JsonObject result = answer.getJsonObject("result");
    if (result != null) {
      JsonObject meta = result.getJsonObject("_meta", new JsonObject());
      result.put(
          "_meta",
          meta.put(ToolCallContext.META_REPLAY, true)
              .put("dev.toolgate/original-correlation-id", record.correlationId()));
    }
    ctx.reply().answer(answer);
    ResultClass result1 = Attempt.classify(answer);
    event(
        0,
        null,
        result1,
        0,
        0,
        null,
        "replayed",
        null,
        "answered from the record of " + record.correlationId() + "; the backend was not called",
        record.operationId(),
        null,
        tool);
    s.metrics().call(upstream, toolLabel, result1.wireName());
    done = true;
  }

  private void shared() {
    String key = IntentFingerprint.ofArgumentsHash("", tool, argumentsHash());
    Promise<JsonObject> mine = Promise.promise();
    Promise<JsonObject> leader = s.sharedCalls().putIfAbsent(key, mine);
    if (leader == null) {
      shareKey = key;
      startAttempts();
      return;
    }
    gate.release();
    leader
        .future()
        .onSuccess(
            answer -> {
              ctx.reply().answer(answer.copy());
              ResultClass result = Attempt.classify(answer);
              event(
                  0,
                  null,
                  result,
                  0,
                  0,
                  null,
                  "shared",
                  null,
                  "an identical call was running; its answer was shared",
                  null,
                  null,
                  tool);
              s.metrics().call(upstream, toolLabel, result.wireName());
              done = true;
            })
        .onFailure(e -> startAttempts());
  }

  // ---- attempts -------------------------------------------------------------------------------

  private void startAttempts() {
    s.retryBudget().recordCall(s.clock().millis());
    attempt(1, null);
  }

  private void attempt(int number, String retryReason) {
    retryTimer = -1;
    if (done) {
      return;
    }
    CallBudget.AttemptTimeout timeout = budget.attemptTimeout(s.clock().millis());
    if (timeout.timeoutMs() < RetryDecider.MIN_ATTEMPT_MS) {
      deny(
          AgentCode.BUDGET_EXHAUSTED,
          "no time is left in the call's budget ("
              + budget.callLayer().wireName()
              + ") to try "
              + tool,
          new JsonObject().put("timeoutLayer", budget.callLayer().wireName()));
      return;
    }
    if (!gate.reacquire(this::deny)) {
      return;
    }
    Attempt a = new Attempt(s, ctx, number, timeout, false, this::late);
    current = a;
    a.start().onSuccess(o -> afterAttempt(a, o, retryReason));
    // The request is upstream by now unless a connection is still being opened.
    identify();
  }

  private void afterAttempt(Attempt a, Attempt.Outcome o, String retryReason) {
    gate.record(o);
    if (o.timeoutLayer() != null) {
      s.metrics().timeout(upstream, toolLabel, o.timeoutLayer().wireName());
    }
    if (o.answered() || o.result() == ResultClass.CANCELLED) {
      answered(o);
      // The answer is written after this returns, in the same task; its evidence and metrics wait
      // for that, off the agent's latency. What the answer must wait for is settled above.
      s.vertx()
          .runOnContext(
              v -> {
                event(a, o, o.answered() ? "forwarded" : "cancelled", retryReason, null);
                s.metrics().call(upstream, toolLabel, o.result().wireName());
              });
      return;
    }
    long now = s.clock().millis();
    RetryDecision decision =
        RetryDecider.decide(
            rule,
            o.result(),
            o.ambiguous(),
            a.number(),
            budget.remainingMs(now),
            o.retryAfterMs(),
            s.random());
    if (decision.retry() && gate.open()) {
      decision = new RetryDecision(false, 0, "the circuit opened");
    }
    if (decision.retry() && !s.retryBudget().tryAcquireRetry(now)) {
      decision = new RetryDecision(false, 0, "the sidecar-wide retry budget is spent");
    }
    event(a, o, decision.retry() ? "retried" : "final", retryReason, decision.reason());
    if (decision.retry() && !done) {
      s.metrics().retry(upstream, toolLabel, o.result().wireName());
      String why = decision.reason();
      retryTimer =
          s.vertx().setTimer(Math.max(1, decision.delayMs()), t -> attempt(a.number() + 1, why));
      return;
    }
    failed(o, decision.reason());
  }

  private void answered(Attempt.Outcome o) {
    done = true;
    if (ctx.idempotencyKey() != null) {
      if (o.answer() != null && o.result() != ResultClass.CANCELLED) {
        // Bounded and never failing: a store that is slow or down delays the answer, never loses
        // it.
        ctx.reply()
            .holdUntil(
                s.idempotency()
                    .complete(
                        ctx.idempotencyKey(),
                        o.answer().json().copy().put("id", null).encode(),
                        o.operationId(),
                        s.clock().millis())
                    .timeout(RECORD_WAIT_MS, TimeUnit.MILLISECONDS)
                    .otherwiseEmpty());
      } else if (o.ambiguous()) {
        s.idempotency().markAmbiguous(ctx.idempotencyKey(), null, s.clock().millis());
      } else {
        s.idempotency().release(ctx.idempotencyKey());
      }
    }
    if (shareKey != null) {
      share(o.answer() == null ? null : o.answer().json());
    }
  }

  private void failed(Attempt.Outcome o, String why) {
    done = true;
    s.metrics().call(upstream, toolLabel, o.result().wireName());
    if (rule.effect().isWrite() && o.ambiguous()) {
      ambiguousWrite(o);
      return;
    }
    if (ctx.idempotencyKey() != null) {
      s.idempotency().release(ctx.idempotencyKey());
    }
    JsonObject details =
        new JsonObject().put("result", o.result().wireName()).put("attempts", current.number());
    if (o.httpStatus() > 0) {
      details.put("httpStatus", o.httpStatus());
    }
    o.retryAfterMs().ifPresent(ms -> details.put("retryAfterMs", ms));
    switch (o.result()) {
      case TIMEOUT ->
          ctx.reply()
              .error(
                  AgentCode.TIMEOUT,
                  "The "
                      + o.timeoutLayer().wireName()
                      + " budget expired before "
                      + tool
                      + " on '"
                      + upstream
                      + "' answered ("
                      + why
                      + ")."
                      + (rule.effect().isWrite() ? "" : " Nothing was changed by a read."),
                  details.put("timeoutLayer", o.timeoutLayer().wireName()));
      case TRANSPORT_UNAVAILABLE ->
          ctx.reply()
              .error(
                  AgentCode.UPSTREAM_UNAVAILABLE,
                  "Toolgate could not reach upstream '"
                      + upstream
                      + "'; "
                      + tool
                      + " was not executed ("
                      + why
                      + ").",
                  details);
      case UPSTREAM_CLOSED ->
          ctx.reply()
              .error(
                  AgentCode.UPSTREAM_CLOSED,
                  "Upstream '"
                      + upstream
                      + "' closed the stream before answering "
                      + tool
                      + " ("
                      + why
                      + ").",
                  details);
      case BACKEND_429 ->
          ctx.reply()
              .error(
                  AgentCode.BACKEND_429,
                  "The backend behind '"
                      + upstream
                      + "' answered 429 (too many requests) to "
                      + tool
                      + "; retry later ("
                      + why
                      + ").",
                  details);
      case BACKEND_503 ->
          ctx.reply()
              .error(
                  AgentCode.BACKEND_503,
                  "The backend behind '"
                      + upstream
                      + "' is unavailable (503) for "
                      + tool
                      + " ("
                      + why
                      + ").",
                  details);
      default ->
          ctx.reply()
              .error(
                  AgentCode.BACKEND_ERROR,
                  "The backend behind '"
                      + upstream
                      + "' failed ("
                      + o.result().wireName()
                      + ") for "
                      + tool
                      + " ("
                      + why
                      + ").",
                  details);
    }
    share(ctx.reply().lastAnswer());
  }

  /** A write reached the backend and its outcome is unknown: never retried, looked up by key. */
  private void ambiguousWrite(Attempt.Outcome o) {
    String key = ctx.idempotencyKey();
    JsonObject details =
        new JsonObject().put("idempotencyKey", key).put("result", o.result().wireName());
    if (o.timeoutLayer() != null) {
      details.put("timeoutLayer", o.timeoutLayer().wireName());
    }
    String what =
        tool
            + " reached the backend but its answer was lost ("
            + o.result().wireName()
            + "); Toolgate did not retry it.";
    if (key == null || rule.idempotency().lookup() == null) {
      if (key != null) {
        s.idempotency().markAmbiguous(key, null, s.clock().millis());
      }
      ctx.reply()
          .error(
              AgentCode.AMBIGUOUS_WRITE,
              what + " No lookup is configured: check the" + " backend before relaunching.",
              details.put("lookup", "not_configured"));
      return;
    }
    var lookup = rule.idempotency().lookup();
    OperationLookup.run(s, ctx, lookup, key, policy.budget())
        .onSuccess(
            result -> {
              String found = result.state();
              String operationId = result.operationId();
              s.idempotency().markAmbiguous(key, operationId, s.clock().millis());
              details.put("lookup", found);
              if (operationId != null) {
                details.put("operationId", operationId);
              }
              Attempt.Outcome lo = result.outcome();
              event(
                  result.attempt().number(),
                  result.attempt().upstreamId(),
                  lo.result(),
                  lo.httpStatus(),
                  lo.nanos(),
                  lo.timeoutLayer(),
                  "ambiguous_lookup",
                  null,
                  "looked up " + tool + " by its idempotency key: " + found,
                  operationId,
                  null,
                  lookup.tool());
              String sentence =
                  switch (found) {
                    case "accepted" ->
                        " Looking it up by its idempotency key found operation "
                            + operationId
                            + " accepted: do not relaunch it.";
                    case "not_found" ->
                        " Looking it up by its idempotency key found no operation: it was most"
                            + " likely not executed; relaunch only after checking.";
                    default ->
                        " Looking it up by its idempotency key did not tell ("
                            + result.outcome().result().wireName()
                            + "): check the backend before relaunching.";
                  };
              ctx.reply().error(AgentCode.AMBIGUOUS_WRITE, what + sentence, details);
            });
  }

  private void late(Attempt a, JsonObject answer) {
    ResultClass result = Attempt.classify(answer);
    String operationId = OperationId.of(answer);
    if (ctx.idempotencyKey() != null && operationId != null) {
      s.idempotency().markAmbiguous(ctx.idempotencyKey(), operationId, s.clock().millis());
    }
    event(
        a.number(),
        a.upstreamId(),
        result,
        0,
        0,
        null,
        "late_result",
        null,
        "answer of an abandoned attempt: recorded, never forwarded, never followed by a second write",
        operationId,
        null,
        tool);
  }

  private void agentGone() {
    if (done) {
      return;
    }
    if (retryTimer >= 0) {
      s.vertx().cancelTimer(retryTimer);
      retryTimer = -1;
    }
    if (current != null) {
      current.agentGone();
    }
    if (shareKey != null) {
      Promise<JsonObject> p = s.sharedCalls().remove(shareKey);
      if (p != null) {
        p.tryFail("the first caller went away");
      }
    }
  }

  private void share(JsonObject answer) {
    if (shareKey == null) {
      return;
    }
    Promise<JsonObject> p = s.sharedCalls().remove(shareKey);
    if (p != null) {
      if (answer != null) {
        p.tryComplete(answer.copy());
      } else {
        p.tryFail("no answer to share");
      }
    }
  }

  // ---- shadow ---------------------------------------------------------------------------------

  private void runShadow() {
    Admission.Decision admission =
        Admission.decide(rule, policy.killSwitch().blockWrites(), approvalStatus());
    CallBudget.AttemptTimeout enforced = budget.attemptTimeout(s.clock().millis());
    Attempt a =
        new Attempt(
            s,
            ctx,
            1,
            new CallBudget.AttemptTimeout(SHADOW_CEILING_MS, TimeoutLayer.ATTEMPT),
            true,
            this::late);
    current = a;
    a.start()
        .onSuccess(
            o -> {
              done = true;
              String would;
              if (!admission.admitted()) {
                would = "deny:" + admission.code().wireName();
              } else if (o.nanos() / 1_000_000 > enforced.timeoutMs()) {
                would = "timeout:" + enforced.layer().wireName();
              } else if (!o.answered() || o.result().isBackendFailure()) {
                RetryDecision d =
                    RetryDecider.decide(
                        rule,
                        o.result(),
                        o.ambiguous(),
                        1,
                        budget.remainingMs(s.clock().millis()),
                        o.retryAfterMs(),
                        s.random());
                would = d.retry() ? "retry" : "fail";
              } else {
                would = "forward";
              }
              if (!o.answered()) {
                ctx.reply()
                    .response()
                    .setStatusCode(502)
                    .putHeader("Content-Type", "application/json")
                    .end(
                        dev.toolgate.sidecar.mcp.JsonRpc.error(
                            null,
                            dev.toolgate.sidecar.mcp.JsonRpc.UPSTREAM_UNAVAILABLE,
                            "upstream '" + upstream + "' failed: " + o.result().wireName()));
              }
              s.metrics()
                  .shadowDecision(
                      upstream,
                      toolLabel,
                      would.contains(":") ? would.substring(0, would.indexOf(':')) : would);
              s.metrics().call(upstream, toolLabel, o.result().wireName());
              String reasons = admission.admitted() ? null : String.join("; ", admission.reasons());
              event(
                  a.number(),
                  a.upstreamId(),
                  o.result(),
                  o.httpStatus(),
                  o.nanos(),
                  o.timeoutLayer(),
                  "shadow",
                  null,
                  reasons,
                  o.operationId(),
                  would,
                  tool);
            });
    identify();
  }

  // ---- answers and evidence -------------------------------------------------------------------

  private void deny(AgentCode code, String reason, JsonObject details) {
    done = true;
    gate.release();
    JsonObject d = details == null ? new JsonObject() : details;
    ctx.reply().error(code, reason, d.put("tool", tool));
    s.metrics().denial(upstream, toolLabel, code.wireName());
    s.metrics().call(upstream, toolLabel, ResultClass.POLICY_DENIED.wireName());
    event(
        0,
        null,
        code == AgentCode.APPROVAL_REQUIRED
            ? ResultClass.APPROVAL_REQUIRED
            : ResultClass.POLICY_DENIED,
        0,
        0,
        null,
        "denied:" + code.wireName(),
        null,
        reason,
        null,
        null,
        tool);
    share(ctx.reply().lastAnswer());
  }

  private static String hint(AgentCode code) {
    return switch (code) {
      case APPROVAL_REQUIRED ->
          ". Ask a human to approve it (toolgate approve, for this tool and"
              + " these exact arguments) and send the token in _meta \"dev.toolgate/approval\" or the"
              + " Toolgate-Approval header";
      case WRITES_BLOCKED ->
          ". Writes are blocked by the operators' kill switch; read-only tools still work";
      default -> "";
    };
  }

  private void event(
      Attempt a, Attempt.Outcome o, String decision, String retryReason, String reason) {
    event(
        a.number(),
        a.upstreamId(),
        o.result(),
        o.httpStatus(),
        o.nanos(),
        o.timeoutLayer(),
        decision,
        retryReason,
        reason,
        o.operationId(),
        null,
        tool);
    s.metrics().attempt(upstream, toolLabel, o.result().wireName(), o.nanos());
  }

  private void event(
      int attempt,
      String upstreamId,
      ResultClass result,
      int status,
      long nanos,
      TimeoutLayer layer,
      String decision,
      String retryReason,
      String reason,
      String operationId,
      String wouldHave,
      String toolName) {
    Instant now = s.clock().instant();
    s.events()
        .accept(
            new AttemptEvent(
                now,
                ctx.correlationId(),
                conversationId,
                intentId(),
                sessionKey,
                toolName,
                upstream,
                attempt,
                upstreamId,
                result.wireName(),
                status,
                nanos / 1_000_000.0,
                layer == null ? null : layer.wireName(),
                operationId,
                loaded.config().revision(),
                loaded.shortHash(),
                mode.wireName(),
                decision,
                retryReason,
                ctx.idempotencyKey(),
                reason,
                wouldHave,
                circuit()));
    s.audit().record(sessionKey, now, toolName, attempt, result.wireName(), decision);
  }

  private String circuit() {
    return gate.circuitAtCall();
  }

  private String identity(String metaKey, String header) {
    JsonObject meta = params.getValue("_meta") instanceof JsonObject m ? m : null;
    Object fromMeta = meta == null ? null : meta.getValue(metaKey);
    return fromMeta instanceof String v ? v : req.getHeader(header);
  }

  private OptionalLong agentRemainingMs() {
    JsonObject meta = params.getValue("_meta") instanceof JsonObject m ? m : null;
    Object fromMeta = meta == null ? null : meta.getValue(ToolCallContext.META_DEADLINE_MS);
    if (fromMeta instanceof Number n) {
      return OptionalLong.of(n.longValue());
    }
    String header = req.getHeader(ToolCallContext.HEADER_DEADLINE_MS);
    if (header != null) {
      try {
        return OptionalLong.of(Long.parseLong(header.trim()));
      } catch (NumberFormatException e) {
        return OptionalLong.empty();
      }
    }
    return OptionalLong.empty();
  }
}
