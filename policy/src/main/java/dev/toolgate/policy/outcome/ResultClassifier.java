package dev.toolgate.policy.outcome;

/**
 * Classifies what an upstream answered. Pure and allocation-free: called once per attempt.
 *
 * <p>The HTTP status wins over the body: a 503 with a JSON-RPC body is still a 503. Within a 2xx, a
 * JSON-RPC error is a protocol error (or invalid arguments for -32602) and a result with {@code
 * isError: true} is a tool error.
 */
public final class ResultClassifier {

  /** JSON-RPC's "Invalid params". */
  public static final int JSON_RPC_INVALID_PARAMS = -32602;

  private ResultClassifier() {}

  /** The class of an HTTP response that carried no usable JSON-RPC response. */
  public static ResultClass ofHttpStatus(int status) {
    if (status == 429) {
      return ResultClass.BACKEND_429;
    }
    if (status == 503) {
      return ResultClass.BACKEND_503;
    }
    if (status >= 500) {
      return ResultClass.BACKEND_5XX_OTHER;
    }
    if (status >= 400) {
      return ResultClass.BACKEND_4XX_OTHER;
    }
    return ResultClass.PROTOCOL_ERROR;
  }

  /** The class of a JSON-RPC error response. */
  public static ResultClass ofJsonRpcError(int code) {
    return code == JSON_RPC_INVALID_PARAMS
        ? ResultClass.INVALID_ARGUMENTS
        : ResultClass.PROTOCOL_ERROR;
  }

  /** The class of a JSON-RPC result of {@code tools/call}. */
  public static ResultClass ofToolResult(boolean isError) {
    return isError ? ResultClass.TOOL_ERROR : ResultClass.SUCCESS;
  }
}
