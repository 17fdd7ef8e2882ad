package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.budget.CallBudget;
import dev.toolgate.policy.budget.TimeoutLayer;
import dev.toolgate.policy.model.Budget;
import dev.toolgate.policy.model.Lookup;
import dev.toolgate.policy.outcome.ResultClass;
import dev.toolgate.sidecar.mcp.ParsedMessage;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * After an ambiguous write, asks the backend's lookup tool whether an operation exists for the
 * idempotency key (seed 000: "query_operation_by_idempotency_key"). The lookup is bounded by {@code
 * min(backendMs, reserveForFinalResponseMs)}: it spends the time the agent keeps to answer. The
 * lookup tool's result carries {@code structuredContent.found} and the operation's {@code
 * operation_id} (at the top or under {@code operation}).
 */
final class OperationLookup {

  /** What the lookup found: {@code accepted}, {@code not_found} or {@code unknown}. */
  record Found(
      String state,
      String operationId,
      ToolCallContext context,
      Attempt attempt,
      Attempt.Outcome outcome) {}

  private OperationLookup() {}

  static Future<Found> run(
      CallServices s, ToolCallContext call, Lookup lookup, String key, Budget budget) {
    JsonObject message =
        new JsonObject()
            .put("jsonrpc", "2.0")
            .put("id", call.correlationId())
            .put("method", "tools/call")
            .put(
                "params",
                new JsonObject()
                    .put("name", lookup.tool())
                    .put("arguments", new JsonObject().put(lookup.argument(), key)));
    ToolCallContext context =
        new ToolCallContext(
            call.correlationId() + "-lookup",
            call.clientId(),
            call.scope(),
            call.route(),
            call.upstreamUri(),
            call.agentHeaders(),
            call.protocolVersion(),
            ParsedMessage.written(message),
            null,
            AgentReply.detached(call.correlationId()));
    long timeoutMs = Math.min(budget.backendMs(), budget.reserveForFinalResponseMs());
    Attempt attempt =
        new Attempt(
            s,
            context,
            1,
            new CallBudget.AttemptTimeout(timeoutMs, TimeoutLayer.ATTEMPT),
            false,
            (a, late) -> {});
    return attempt.start().map(outcome -> interpret(context, attempt, outcome));
  }

  private static Found interpret(
      ToolCallContext context, Attempt attempt, Attempt.Outcome outcome) {
    JsonObject structured =
        outcome.answer() == null
            ? null
            : outcome
                .answer()
                .json()
                .getJsonObject("result", new JsonObject())
                .getJsonObject("structuredContent");
    if (outcome.result() != ResultClass.SUCCESS || structured == null) {
      return new Found("unknown", null, context, attempt, outcome);
    }
    JsonObject operation =
        structured.getValue("operation") instanceof JsonObject j ? j : structured;
    String operationId = operation.getString("operation_id", operation.getString("operationId"));
    String state =
        Boolean.FALSE.equals(structured.getValue("found"))
            ? "not_found"
            : operationId != null ? "accepted" : "unknown";
    return new Found(state, operationId, context, attempt, outcome);
  }
}
