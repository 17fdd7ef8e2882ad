package dev.toolgate.demo;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Seed 000's deployment API: a read, an idempotent write that keeps one operation per key, the
 * lookup of an operation by key, and an expensive log search.
 */
final class DemoTools {

  static final String GET_DEPLOYMENT_JOB = "get_deployment_job";
  static final String RESTART_DEPLOYMENT_JOB = "restart_deployment_job";
  static final String GET_OPERATION_BY_KEY = "get_operation_by_key";
  static final String SEARCH_LOGS = "search_logs";

  /**
   * A newer name of {@link #GET_DEPLOYMENT_JOB} that the demo policy does not name: what a backend
   * that added a tool before its policy did looks like.
   */
  static final String GET_DEPLOYMENT_JOB_V2 = "get_deployment_job_v2";

  /** A call the tool refuses: answered as JSON-RPC -32602. */
  static final class InvalidArgumentsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InvalidArgumentsException(String message) {
      super(message);
    }
  }

  private final Map<String, JsonObject> operationsByKey = new ConcurrentHashMap<>();
  private final Map<String, Integer> restartsByJob = new ConcurrentHashMap<>();
  private final Ledger ledger;
  private final LongSupplier clockMs;

  DemoTools(Ledger ledger, LongSupplier clockMs) {
    this.ledger = ledger;
    this.clockMs = clockMs;
  }

  static boolean exists(String tool) {
    return switch (tool) {
      case GET_DEPLOYMENT_JOB,
          GET_DEPLOYMENT_JOB_V2,
          RESTART_DEPLOYMENT_JOB,
          GET_OPERATION_BY_KEY,
          SEARCH_LOGS ->
          true;
      default -> false;
    };
  }

  JsonArray list() {
    return new JsonArray()
        .add(
            tool(
                GET_DEPLOYMENT_JOB,
                "Reads the current state of a deployment job.",
                schema("job_id"),
                true))
        .add(
            tool(
                RESTART_DEPLOYMENT_JOB,
                "Restarts a deployment job. One operation per idempotency key.",
                schema("job_id", "environment"),
                false))
        .add(
            tool(
                GET_OPERATION_BY_KEY,
                "Finds the operation created for an idempotency key.",
                schema("idempotency_key"),
                true))
        .add(tool(SEARCH_LOGS, "Searches a window of logs. Expensive.", schema("query"), true))
        .add(
            tool(
                GET_DEPLOYMENT_JOB_V2,
                "Reads the current state of a deployment job (newer name).",
                schema("job_id"),
                true));
  }

  /** Checks a call's arguments before any work, so a bad call costs nothing. */
  void validate(String tool, JsonObject args) {
    switch (tool) {
      case GET_DEPLOYMENT_JOB, GET_DEPLOYMENT_JOB_V2 -> required(args, "job_id");
      case RESTART_DEPLOYMENT_JOB -> {
        required(args, "job_id");
        required(args, "environment");
      }
      case GET_OPERATION_BY_KEY -> required(args, "idempotency_key");
      case SEARCH_LOGS -> required(args, "query");
      default -> throw new InvalidArgumentsException("unknown tool: " + tool);
    }
  }

  /** Performs the call's effect and returns its {@code CallToolResult}. */
  JsonObject perform(String tool, JsonObject args, String idempotencyKey) {
    return switch (tool) {
      case GET_DEPLOYMENT_JOB, GET_DEPLOYMENT_JOB_V2 -> getJob(args.getString("job_id"));
      case RESTART_DEPLOYMENT_JOB -> restart(args, idempotencyKey);
      case GET_OPERATION_BY_KEY -> lookup(args.getString("idempotency_key"));
      case SEARCH_LOGS -> search(args.getString("query"));
      default -> throw new InvalidArgumentsException("unknown tool: " + tool);
    };
  }

  private JsonObject getJob(String jobId) {
    int restarts = restartsByJob.getOrDefault(jobId, 0);
    return result(
        new JsonObject()
            .put("job_id", jobId)
            .put("state", restarts == 0 ? "failed" : "running")
            .put("restarts", restarts)
            .put("observed_at", now()));
  }

  private JsonObject restart(JsonObject args, String idempotencyKey) {
    String jobId = args.getString("job_id");
    if (idempotencyKey != null) {
      JsonObject existing = operationsByKey.get(idempotencyKey);
      if (existing != null) {
        return result(existing.copy().put("replayed", true));
      }
    }
    JsonObject operation =
        new JsonObject()
            .put("operation_id", "op-" + UUID.randomUUID())
            .put("job_id", jobId)
            .put("environment", args.getString("environment"))
            .put("status", "accepted")
            .put("accepted_at", now());
    if (idempotencyKey != null) {
      operation.put("idempotency_key", idempotencyKey);
      JsonObject raced = operationsByKey.putIfAbsent(idempotencyKey, operation);
      if (raced != null) {
        return result(raced.copy().put("replayed", true));
      }
    }
    restartsByJob.merge(jobId, 1, Integer::sum);
    ledger.operationPerformed(RESTART_DEPLOYMENT_JOB);
    return result(operation.copy().put("replayed", false));
  }

  private JsonObject lookup(String key) {
    JsonObject operation = operationsByKey.get(key);
    JsonObject found = new JsonObject().put("idempotency_key", key).put("found", operation != null);
    if (operation != null) {
      found.put("operation", operation.copy());
    }
    return result(found);
  }

  private JsonObject search(String query) {
    ledger.operationPerformed(SEARCH_LOGS);
    return result(
        new JsonObject()
            .put("query", query)
            .put(
                "lines",
                new JsonArray()
                    .add(now() + " deploy-worker-1 ERROR " + query)
                    .add(now() + " deploy-worker-2 WARN retrying " + query)));
  }

  private String now() {
    return Instant.ofEpochMilli(clockMs.getAsLong()).toString();
  }

  private static JsonObject result(JsonObject structured) {
    return new JsonObject()
        .put(
            "content",
            new JsonArray()
                .add(new JsonObject().put("type", "text").put("text", structured.encode())))
        .put("structuredContent", structured)
        .put("isError", false);
  }

  private static void required(JsonObject args, String name) {
    Object value = args.getValue(name);
    if (!(value instanceof String s) || s.isBlank()) {
      throw new InvalidArgumentsException(
          "argument '" + name + "' is required (a non-empty string)");
    }
  }

  private static JsonObject schema(String... required) {
    JsonObject props = new JsonObject();
    for (String name : required) {
      props.put(name, new JsonObject().put("type", "string"));
    }
    return new JsonObject()
        .put("type", "object")
        .put("properties", props)
        .put("required", new JsonArray(java.util.List.of((Object[]) required)));
  }

  private static JsonObject tool(
      String name, String description, JsonObject schema, boolean readOnly) {
    return new JsonObject()
        .put("name", name)
        .put("description", description)
        .put("inputSchema", schema)
        .put("annotations", new JsonObject().put("readOnlyHint", readOnly));
  }
}
