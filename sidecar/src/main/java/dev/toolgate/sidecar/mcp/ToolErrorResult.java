package dev.toolgate.sidecar.mcp;

import dev.toolgate.policy.outcome.AgentCode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A {@code tools/call} result the sidecar writes itself ({@code isError: true}): a sentence a model
 * can act on, the correlation id, and the machine code (DESIGN section 5).
 */
public final class ToolErrorResult {

  public static final String META_CODE = "dev.toolgate/code";
  public static final String META_CORRELATION_ID = "dev.toolgate/correlation-id";

  /** How current a read's answer is: {@code fresh}, {@code cached} or {@code none} (seed 000). */
  public static final String META_EVIDENCE = "dev.toolgate/evidence";

  private ToolErrorResult() {}

  private static String sentence(String text) {
    String trimmed = text.strip();
    return trimmed.endsWith(".") ? trimmed : trimmed + ".";
  }

  public static JsonObject of(
      AgentCode code, String sentence, String correlationId, JsonObject details) {
    JsonObject toolgate =
        new JsonObject().put("code", code.wireName()).put("correlationId", correlationId);
    if (details != null) {
      toolgate.mergeIn(details);
    }
    JsonObject meta =
        new JsonObject().put(META_CODE, code.wireName()).put(META_CORRELATION_ID, correlationId);
    if (details != null
        && details.getValue("fallback") instanceof JsonObject fallback
        && fallback.getValue("evidence") instanceof String evidence) {
      meta.put(META_EVIDENCE, evidence);
    }
    return new JsonObject()
        .put(
            "content",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("type", "text")
                        .put(
                            "text",
                            sentence(sentence) + " Correlation id: " + correlationId + ".")))
        .put("isError", true)
        .put("structuredContent", new JsonObject().put("toolgate", toolgate))
        .put("_meta", meta);
  }
}
