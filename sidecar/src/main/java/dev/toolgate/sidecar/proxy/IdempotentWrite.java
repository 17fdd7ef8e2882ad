package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.idempotency.DuplicateDecision;
import dev.toolgate.policy.idempotency.IdempotencyKeys;
import dev.toolgate.policy.idempotency.IdempotencyRecord;
import dev.toolgate.policy.idempotency.KeyInputs;
import dev.toolgate.policy.outcome.AgentCode;
import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.policy.outcome.Wording;
import dev.toolgate.sidecar.evidence.Decision;
import dev.toolgate.sidecar.state.CredentialRefused;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeUnit;

/**
 * A write with an idempotency rule: its key derived from the policy's components, its record taken
 * in the shared state before any attempt, and the record's state deciding — a first use proceeds, a
 * running one is a duplicate, a completed one is replayed without calling the backend, an ambiguous
 * one is not sent again, the same key with other arguments is refused. The record is completed with
 * the answer before the agent gets it, so a relaunch on any replica is replayed.
 */
final class IdempotentWrite {

  private final ToolCall call;
  private final CallServices s;
  private String key;

  IdempotentWrite(ToolCall call) {
    this.call = call;
    this.s = call.services();
  }

  /** The admission step: true when this write may run now. */
  Future<Boolean> admit() {
    CallIdentity id = call.identity();
    IdempotencyKeys.Derivation derivation =
        IdempotencyKeys.derive(
            call.rule().idempotency(),
            new KeyInputs(
                id.tool(), id.arguments(), id.intentId(), call.approvalId(), id.sessionKey()));
    if (!derivation.derived()) {
      call.deny(
          AgentCode.POLICY_DENIED, Wording.keyNotDerivable(id.tool(), derivation.missing()), null);
      return Future.succeededFuture(false);
    }
    key = derivation.key();
    call.idempotencyKey(key);
    return s.idempotency()
        .begin(key, id.argumentsHash(), call.context().correlationId(), s.clock().millis())
        .map(this::decide)
        .otherwise(
            e -> {
              call.deny(
                  AgentCode.POLICY_DENIED,
                  e instanceof CredentialRefused
                      ? "the shared state refused this sidecar's credential ("
                          + e.getMessage()
                          + "): writes are refused until it accepts one"
                      : "the shared state is unreachable and writes fail closed: the write's"
                          + " idempotency record cannot be taken ("
                          + e.getMessage()
                          + ")",
                  null);
              return false;
            });
  }

  private boolean decide(IdempotencyRecord existing) {
    DuplicateDecision d = DuplicateDecision.of(existing, call.identity().argumentsHash());
    switch (d.verdict()) {
      case PROCEED -> {
        if (call.done()) {
          // Cancelled by the agent while the record was being taken: the write never runs.
          s.idempotency().release(key);
          return false;
        }
        return true;
      }
      case REPLAY -> replay(existing);
      case DUPLICATE_IN_FLIGHT ->
          call.deny(AgentCode.DUPLICATE_IN_FLIGHT, Wording.duplicateInFlight(d.reason()), null);
      case AMBIGUOUS ->
          call.deny(
              AgentCode.AMBIGUOUS_WRITE,
              Wording.ambiguousEarlier(d.reason()),
              new JsonObject()
                  .put("idempotencyKey", key)
                  .put("operationId", existing.operationId()));
      case ARGUMENTS_MISMATCH -> call.deny(AgentCode.POLICY_DENIED, d.reason(), null);
    }
    return false;
  }

  private void replay(IdempotencyRecord record) {
    call.gate().release();
    JsonObject answer = new JsonObject(record.answer());
    JsonObject result = answer.getJsonObject("result");
    if (result != null) {
      JsonObject meta = result.getJsonObject("_meta", new JsonObject());
      result.put(
          "_meta",
          meta.put(ToolCallContext.META_REPLAY, true)
              .put("dev.toolgate/original-correlation-id", record.correlationId()));
    }
    call.context().reply().answer(answer);
    ResultClass resultClass = Attempt.classify(answer);
    call.evidence()
        .entry(Decision.REPLAYED)
        .result(resultClass)
        .reason(
            "answered from the record of "
                + record.correlationId()
                + "; the backend was not called")
        .operationId(record.operationId())
        .write();
    call.evidence().called(resultClass);
    call.finish();
  }

  /** An attempt answered (or the agent went away): the record completed, marked or given up. */
  void attemptAnswered(Attempt.Outcome o) {
    if (key == null) {
      return;
    }
    if (o.answer() != null && o.result() != ResultClass.CANCELLED) {
      // Bounded and never failing: a store that is slow or down delays the answer, never loses it.
      call.context()
          .reply()
          .holdUntil(
              s.idempotency()
                  .complete(
                      key,
                      o.answer().json().copy().put("id", null).encode(),
                      o.operationId(),
                      s.clock().millis())
                  .timeout(ToolCall.RECORD_WAIT_MS, TimeUnit.MILLISECONDS)
                  .otherwiseEmpty());
    } else if (o.ambiguous()) {
      markAmbiguous(null);
    } else {
      release();
    }
  }

  /** The write failed without reaching the backend: its key is free again. */
  void release() {
    if (key != null) {
      s.idempotency().release(key);
    }
  }

  /** The write's outcome is unknown; {@code operationId} when a lookup or a late answer told it. */
  void markAmbiguous(String operationId) {
    if (key != null) {
      s.idempotency().markAmbiguous(key, operationId, s.clock().millis());
    }
  }

  /** An abandoned attempt's late answer named the operation it started. */
  void lateOperation(String operationId) {
    if (operationId != null) {
      markAmbiguous(operationId);
    }
  }

  /** The key, once derived. */
  String key() {
    return key;
  }
}
