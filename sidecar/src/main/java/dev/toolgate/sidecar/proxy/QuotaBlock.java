package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.model.Policy;
import dev.toolgate.policy.model.ToolRule;
import dev.toolgate.policy.outcome.Wording;
import dev.toolgate.policy.quota.QuotaVerdict;
import dev.toolgate.sidecar.evidence.IsoInstant;
import io.vertx.core.json.JsonObject;

/**
 * A call a quota stopped (seed 002): the agent is told which limit and how to get it raised, an
 * audit record with the session's last calls goes to the evidence, and a write-quota block is
 * posted to the policy's webhook.
 */
final class QuotaBlock {

  private QuotaBlock() {}

  static void answer(ToolCall call, QuotaVerdict verdict) {
    CallServices s = call.services();
    ToolRule rule = call.rule();
    String session = call.identity().sessionKey();
    s.metrics().quotaBlock(verdict.limitName());
    call.deny(
        verdict.code(),
        verdict.explain()
            + "."
            + Wording.quotaLever(verdict.limitName(), session, rule.effect().isWrite()),
        new JsonObject()
            .put("limit", verdict.limitName())
            .put("value", verdict.limit())
            .put("used", verdict.used())
            .put("session", session));
    JsonObject record =
        new JsonObject()
            .put("ts", IsoInstant.format(s.clock().instant()))
            .put("event", "quota_block")
            .put("correlationId", call.context().correlationId())
            .put("session", session)
            .put("agent", call.agentId())
            .put("tool", call.identity().tool())
            .put("effect", rule.effect().wireName())
            .put("limit", verdict.limitName())
            .put("value", verdict.limit())
            .put("used", verdict.used())
            .put("lastCalls", s.audit().lastCalls(session));
    s.events().audit(record);
    Policy policy = call.policy();
    var notify = policy.quotas().notification();
    if (rule.effect().isWrite() && notify != null && notify.webhookUrl() != null) {
      s.notifier().send(notify, record.copy().put("message", verdict.explain()));
    }
  }
}
