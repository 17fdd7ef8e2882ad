package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.budget.TimeoutLayer;
import dev.toolgate.policy.model.Mode;
import dev.toolgate.policy.outcome.AgentCode;
import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.policy.outcome.ShadowVerdict;
import dev.toolgate.sidecar.config.LoadedConfig;
import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.evidence.Decision;
import java.time.Instant;

/**
 * The evidence of one tool call: one event per attempt (and one for a call answered without one),
 * each with what the whole call shares — its ids, session, configuration, mode, key, circuit and
 * approval — and what the attempt adds, set by name on an {@link Entry}.
 */
final class CallEvidence {

  private final CallServices s;
  private final CallIdentity id;
  private final LoadedConfig loaded;
  private final String correlationId;
  private final String upstream;
  private final String toolLabel;
  private final Mode mode;
  private final BreakerGate gate;
  private final CallApproval approval;
  private String idempotencyKey;

  CallEvidence(
      CallServices s,
      CallIdentity id,
      LoadedConfig loaded,
      String correlationId,
      String upstream,
      String toolLabel,
      Mode mode,
      BreakerGate gate,
      CallApproval approval) {
    this.s = s;
    this.id = id;
    this.loaded = loaded;
    this.correlationId = correlationId;
    this.upstream = upstream;
    this.toolLabel = toolLabel;
    this.mode = mode;
    this.gate = gate;
    this.approval = approval;
  }

  /** The write's key, for every event from now on. */
  void idempotencyKey(String key) {
    idempotencyKey = key;
  }

  /** An event of this call, filled in by name, then {@link Entry#write written}. */
  Entry entry(Decision decision) {
    return new Entry(decision);
  }

  /** An attempt that ended: its event, and the attempt in the metrics. */
  void attemptEnded(
      Attempt a, Attempt.Outcome o, Decision decision, String retryReason, String reason) {
    entry(decision).of(a, o).retryReason(retryReason).reason(reason).write();
    s.metrics().attempt(upstream, toolLabel, o.result().wireName(), o.nanos());
  }

  /** The call ended with this result: counted once. */
  void called(ResultClass result) {
    s.metrics().call(upstream, toolLabel, result.wireName());
  }

  /** One event, its fields set by name. */
  final class Entry {
    private final Decision decision;
    private AgentCode denied;
    private int attempt;
    private String upstreamId;
    private ResultClass result;
    private int httpStatus;
    private long nanos;
    private TimeoutLayer timeoutLayer;
    private String retryReason;
    private String reason;
    private String operationId;
    private ShadowVerdict wouldHave;
    private String tool = id.tool();

    private Entry(Decision decision) {
      this.decision = decision;
    }

    /** The attempt and what it came to. */
    Entry of(Attempt a, Attempt.Outcome o) {
      attempt(a);
      result = o.result();
      httpStatus = o.httpStatus();
      nanos = o.nanos();
      timeoutLayer = o.timeoutLayer();
      operationId = o.operationId();
      return this;
    }

    Entry attempt(Attempt a) {
      attempt = a.number();
      upstreamId = a.upstreamId();
      return this;
    }

    Entry result(ResultClass value) {
      result = value;
      return this;
    }

    /** A denial: the decision's code, and the result class a denial is recorded as. */
    Entry denied(AgentCode code) {
      denied = code;
      result =
          code == AgentCode.APPROVAL_REQUIRED
              ? ResultClass.APPROVAL_REQUIRED
              : ResultClass.POLICY_DENIED;
      return this;
    }

    Entry retryReason(String value) {
      retryReason = value;
      return this;
    }

    Entry reason(String value) {
      reason = value;
      return this;
    }

    Entry operationId(String value) {
      operationId = value;
      return this;
    }

    Entry wouldHave(ShadowVerdict value) {
      wouldHave = value;
      return this;
    }

    /** Another tool's name than the call's: the lookup of an ambiguous write. */
    Entry tool(String name) {
      tool = name;
      return this;
    }

    void write() {
      Instant now = s.clock().instant();
      String decided =
          denied == null ? decision.wireName() : decision.wireName() + ":" + denied.wireName();
      s.events()
          .accept(
              new AttemptEvent(
                  now,
                  correlationId,
                  id.conversationId(),
                  id.intentId(),
                  id.sessionKey(),
                  tool,
                  upstream,
                  attempt,
                  upstreamId,
                  result.wireName(),
                  httpStatus,
                  nanos / 1_000_000.0,
                  timeoutLayer == null ? null : timeoutLayer.wireName(),
                  operationId,
                  loaded.config().revision(),
                  loaded.shortHash(),
                  mode.wireName(),
                  decided,
                  retryReason,
                  idempotencyKey,
                  reason,
                  wouldHave == null ? null : wouldHave.wireName(),
                  gate.circuitAtCall(),
                  approval == null ? null : approval.approvalId(),
                  approval == null ? null : approval.approver()));
      s.audit().record(id.sessionKey(), now, tool, attempt, result.wireName(), decided);
    }
  }
}
