package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.breaker.CircuitBreaker;
import dev.toolgate.policy.breaker.CircuitState;
import dev.toolgate.policy.breaker.DegradedAnswer;
import dev.toolgate.policy.breaker.Permission;
import dev.toolgate.policy.json.Hashes;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.outcome.AgentCode;
import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.policy.outcome.Wording;
import dev.toolgate.sidecar.mcp.JsonEncoding;
import dev.toolgate.sidecar.state.Breakers;
import dev.toolgate.sidecar.state.LastKnownResults;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;

/**
 * One call's dealings with its circuit breaker: asking to pass (a peer's opening first, then the
 * local state machine, then a cluster-wide probe permit when half-open), reporting each attempt's
 * outcome, and the {@code circuit_open} answer with the read-only degraded fallback. A tool without
 * a breaker passes everything.
 */
final class BreakerGate {

  /** How the call answers a refusal. */
  interface Refusal {
    void refuse(AgentCode code, String sentence, JsonObject details);
  }

  /** Seed 000's evidence labels: the backend's answer now, one remembered, none at all. */
  static final String EVIDENCE_FRESH = "fresh";

  static final String EVIDENCE_CACHED = "cached";
  static final String EVIDENCE_NONE = "none";

  private final CallServices s;
  private final ToolRule rule;
  private final String upstream;

  /** The key of the last known result, derived only when a fallback needs it. */
  private final Supplier<String> lastKnownKey;

  private final long probeLeaseMs;
  private final CircuitBreaker breaker;
  private final DegradedAnswer degraded;
  private final String name;
  private Permission permission;
  private CircuitState atCall;
  private String probeLease;

  BreakerGate(
      CallServices s,
      ToolRule rule,
      String upstream,
      Supplier<String> lastKnownKey,
      long probeLeaseMs) {
    this.s = s;
    this.rule = rule;
    this.upstream = upstream;
    this.lastKnownKey = lastKnownKey;
    this.probeLeaseMs = probeLeaseMs;
    this.breaker = rule.breaker() == null ? null : s.breakers().of(upstream, rule);
    this.degraded = DegradedAnswer.of(rule);
    this.name = rule.breaker() == null ? null : Breakers.name(upstream, rule);
  }

  /** The circuit's state when the call came, for the evidence; null without a breaker. */
  String circuitAtCall() {
    return atCall == null ? null : atCall.wireName();
  }

  boolean open() {
    return breaker != null && breaker.state() == CircuitState.OPEN;
  }

  /** Asks to let the call's first attempt pass; on refusal answers through {@code refusal}. */
  Future<Boolean> admit(Refusal refusal) {
    if (breaker == null) {
      return Future.succeededFuture(true);
    }
    long now = s.clock().millis();
    long peerOpenedAt = s.breakers().shared().peerOpenedAt(name, now);
    if (peerOpenedAt > 0) {
      breaker.openFromPeer(now, peerOpenedAt);
    }
    permission = breaker.tryAcquire(now);
    atCall = permission.state();
    if (!permission.permitted()) {
      refuse(permission, refusal);
      return Future.succeededFuture(false);
    }
    if (permission.verdict() != Permission.Verdict.PROBE) {
      return Future.succeededFuture(true);
    }
    // Half-open: the probe needs one of the cluster's permits too.
    return s.breakers()
        .shared()
        .acquireProbe(name, rule.breaker().halfOpen().concurrentProbes(), probeLeaseMs)
        .map(
            lease -> {
              if (lease == null) {
                breaker.release(permission);
                refuse(
                    new Permission(
                        Permission.Verdict.REJECTED,
                        CircuitState.HALF_OPEN,
                        0,
                        "a probe is running on another replica"),
                    refusal);
                return false;
              }
              probeLease = lease;
              return true;
            })
        .otherwise(e -> true);
  }

  /** Asks again for a retry; false (after answering) when the circuit refuses it. */
  boolean reacquire(Refusal refusal) {
    if (breaker == null || permission != null) {
      return true;
    }
    permission = breaker.tryAcquire(s.clock().millis());
    if (!permission.permitted()) {
      refuse(permission, refusal);
      return false;
    }
    return true;
  }

  /** Reports an attempt's outcome; keeps a successful read's result for the degraded answer. */
  void record(Attempt.Outcome o) {
    if (breaker != null && permission != null) {
      if (o.result() == ResultClass.CANCELLED) {
        breaker.release(permission);
      } else {
        s.breakers()
            .onResult(
                breaker,
                permission,
                s.clock().millis(),
                o.result().isBackendFailure(),
                o.nanos() / 1_000_000);
      }
      permission = null;
      releaseProbeLease();
    }
    if (degraded.keeps(o.result()) && o.answer() != null && o.answer().hasResult()) {
      Buffer message =
          o.answer().bytes() != null
              ? o.answer().bytes()
              : JsonEncoding.buffer(o.answer().json(), JsonEncoding.DEFAULT_SIZE_HINT);
      s.lastKnown().remember(lastKnownKey.get(), message, s.clock().instant());
    }
  }

  /** The call ends without using its permission (denied later, replayed, shared, gone). */
  void release() {
    if (breaker != null && permission != null) {
      breaker.release(permission);
      permission = null;
    }
    releaseProbeLease();
  }

  private void releaseProbeLease() {
    if (probeLease != null) {
      s.breakers().shared().releaseProbe(probeLease);
      probeLease = null;
    }
  }

  private void refuse(Permission p, Refusal refusal) {
    permission = null;
    s.metrics().breakerRejection(name);
    String incident = "inc-" + Hashes.sha256(name + "@" + breaker.openedAtMs()).substring(0, 10);
    long probeInS = (p.retryInMs() + 999) / 1000;
    JsonObject details =
        new JsonObject()
            .put("breaker", name)
            .put("state", p.state().wireName())
            .put("retryInMs", p.retryInMs())
            .put("incident", incident)
            .put("noWriteActionPerformed", true);
    String sentence =
        Wording.circuitRefused(rule.name(), upstream, p.state().wireName(), incident, probeInS);
    if (degraded == DegradedAnswer.LAST_KNOWN_RESULT) {
      LastKnownResults.Known known = s.lastKnown().get(lastKnownKey.get());
      if (known != null) {
        long ageMs = s.clock().millis() - known.at().toEpochMilli();
        JsonObject result = known.result();
        details.put(
            "fallback",
            new JsonObject()
                .put("evidence", EVIDENCE_CACHED)
                .put("lastKnownAt", known.at().toString())
                .put("ageMs", ageMs)
                .put("result", result));
        sentence +=
            " This is CACHED data from "
                + known.at()
                + " ("
                + ageMs / 1000
                + " s old), not fresh: "
                + text(result);
      } else {
        details.put("fallback", new JsonObject().put("evidence", EVIDENCE_NONE));
        sentence += " There is no evidence of the current state: no earlier result is known.";
      }
    }
    refusal.refuse(AgentCode.CIRCUIT_OPEN, sentence, details);
  }

  private static String text(JsonObject result) {
    Object structured = result.getValue("structuredContent");
    return structured != null ? structured.toString() : String.valueOf(result.getValue("content"));
  }
}
