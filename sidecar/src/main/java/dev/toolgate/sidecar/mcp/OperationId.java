package dev.toolgate.sidecar.mcp;

import io.vertx.core.json.JsonObject;

/**
 * The backend's operation id in a {@code tools/call} answer: a task id (2025-11-25 tasks), or the
 * {@code operation_id} (or {@code operationId}) of the result's structured content.
 */
public final class OperationId {

  private static final String TASK_ID = "taskId";
  private static final String OPERATION_ID = "operation_id";
  private static final String OPERATION_ID_CAMEL = "operationId";

  /** The keys an operation id is read from: an answer that has none of them holds none. */
  public static final ScannedAnswer.Keys KEYS =
      ScannedAnswer.keys(TASK_ID, OPERATION_ID, OPERATION_ID_CAMEL);

  private OperationId() {}

  /** The operation id of {@code answer}, or null. */
  public static String of(JsonObject answer) {
    // An error may come with a result that is not an object: none is read from it.
    if (answer == null || !(answer.getValue("result") instanceof JsonObject result)) {
      return null;
    }
    JsonObject task = result.getValue("task") instanceof JsonObject t ? t : null;
    if (task != null && task.getValue(TASK_ID) instanceof String id) {
      return id;
    }
    JsonObject structured = result.getValue("structuredContent") instanceof JsonObject s ? s : null;
    if (structured == null) {
      return null;
    }
    Object id = structured.getValue(OPERATION_ID);
    if (id == null) {
      id = structured.getValue(OPERATION_ID_CAMEL);
    }
    return id instanceof String s ? s : null;
  }
}
