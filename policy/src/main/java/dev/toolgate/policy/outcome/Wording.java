package dev.toolgate.policy.outcome;

import dev.toolgate.policy.budget.TimeoutLayer;

/**
 * The sentences the sidecar answers an agent with when it answers itself: what happened, whether
 * anything was changed, and what the agent (or its human) can do next. A model reads them, so each
 * names the tool, the upstream and the way forward. Pure.
 */
public final class Wording {

  private Wording() {}

  /**
   * The code and sentence of a call that failed after its attempts.
   *
   * @param code the agent's code
   * @param sentence what the agent reads
   */
  public record Failure(AgentCode code, String sentence) {}

  /**
   * A call whose last attempt came to {@code result} and was not retried.
   *
   * @param layer the budget layer that expired, for a timeout
   * @param why why no further attempt ran
   * @param write whether the tool writes (a read's timeout changed nothing)
   */
  public static Failure failure(
      ResultClass result,
      TimeoutLayer layer,
      String tool,
      String upstream,
      String why,
      boolean write) {
    return switch (result) {
      case TIMEOUT ->
          new Failure(
              AgentCode.TIMEOUT,
              "The "
                  + layer.wireName()
                  + " budget expired before "
                  + tool
                  + " on '"
                  + upstream
                  + "' answered ("
                  + why
                  + ")."
                  + (write ? "" : " Nothing was changed by a read."));
      case TRANSPORT_UNAVAILABLE ->
          new Failure(
              AgentCode.UPSTREAM_UNAVAILABLE,
              "Toolgate could not reach upstream '"
                  + upstream
                  + "'; "
                  + tool
                  + " was not executed ("
                  + why
                  + ").");
      case UPSTREAM_CLOSED ->
          new Failure(
              AgentCode.UPSTREAM_CLOSED,
              "Upstream '"
                  + upstream
                  + "' closed the stream before answering "
                  + tool
                  + " ("
                  + why
                  + ").");
      case UPSTREAM_ANSWER_TOO_LARGE ->
          new Failure(
              AgentCode.UPSTREAM_ANSWER_TOO_LARGE,
              "Upstream '"
                  + upstream
                  + "' answered "
                  + tool
                  + " with more than Toolgate relays (runtime.maxAnswerBytes); the answer was"
                  + " dropped and not retried, since a retry would bring the same. Ask for less"
                  + " (narrower arguments, a page at a time) ("
                  + why
                  + ").");
      case SIDECAR_OVERLOADED ->
          new Failure(
              AgentCode.SIDECAR_BUSY,
              "Toolgate held as many request and answer bodies as it may (runtime.maxHeldBytes)"
                  + " and let the answer of "
                  + tool
                  + " on '"
                  + upstream
                  + "' go; retry in a moment ("
                  + why
                  + ").");
      case BACKEND_429 ->
          new Failure(
              AgentCode.BACKEND_429,
              "The backend behind '"
                  + upstream
                  + "' answered 429 (too many requests) to "
                  + tool
                  + "; retry later ("
                  + why
                  + ").");
      case BACKEND_503 ->
          new Failure(
              AgentCode.BACKEND_503,
              "The backend behind '"
                  + upstream
                  + "' is unavailable (503) for "
                  + tool
                  + " ("
                  + why
                  + ").");
      default ->
          new Failure(
              AgentCode.BACKEND_ERROR,
              "The backend behind '"
                  + upstream
                  + "' failed ("
                  + result.wireName()
                  + ") for "
                  + tool
                  + " ("
                  + why
                  + ").");
    };
  }

  /** What follows a denial's reason: how to get the call through. */
  public static String hint(AgentCode code) {
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

  /**
   * The lever that lifts the limit a call met, and only that one: an administrator's raise for a
   * session's quota, the ToolPolicy for the rate and the agent's quota (which a raise does not
   * touch).
   *
   * @param limitName the limit as the policy names it ({@code quotas.perSession.write}...)
   */
  public static String quotaLever(String limitName, String session, boolean write) {
    if (limitName != null && limitName.startsWith("quotas.perSession.")) {
      return " An administrator can raise it: toolgate-sidecar quota raise --session "
          + session
          + (write ? " --writes N" : " --reads N")
          + " (or POST /admin/quotas/raise).";
    }
    if ("quotas.ratePerMinute".equals(limitName)) {
      return " Slow down: the rate frees up within a minute. Only the operators can change it,"
          + " in the ToolPolicy (quotas.ratePerMinute); a quota raise does not.";
    }
    if ("quotas.newSessionsPerMinute".equals(limitName)) {
      return " This workload opens sessions too fast: a new session id does not bring a new quota."
          + " Go on in an existing session, or wait a minute. Only the operators can change it,"
          + " in the ToolPolicy (quotas.newSessionsPerMinute); a quota raise does not.";
    }
    return " It holds for every session of this workload together (by default 10 times"
        + " quotas.perSession); only the operators can change it, in the"
        + " ToolPolicy ("
        + limitName
        + "); a session's quota raise does not.";
  }

  /** A call with no budget left to start an attempt. */
  public static String budgetExhausted(TimeoutLayer layer, String tool) {
    return "no time is left in the call's budget (" + layer.wireName() + ") to try " + tool;
  }

  /** An approval spent on another operation. */
  public static String approvalSpent(String approvalId) {
    return "the approval "
        + approvalId
        + " was already used for another operation (approvals are single-use)"
        + hint(AgentCode.APPROVAL_REQUIRED);
  }

  /** A write whose key lacks a component. */
  public static String keyNotDerivable(String tool, java.util.List<String> missing) {
    return "the idempotency key of " + tool + " cannot be derived: missing " + missing;
  }

  /** The same write already running. */
  public static String duplicateInFlight(String reason) {
    return reason + "; wait for it: once it completes, the same call is answered from it";
  }

  /** An earlier write with this key whose outcome is unknown. */
  public static String ambiguousEarlier(String reason) {
    return reason + "; check the operation before deciding to write again";
  }

  /** A write that reached the backend and whose answer was lost. */
  public static String answerLost(String tool, ResultClass result) {
    return tool
        + " reached the backend but its answer was lost ("
        + result.wireName()
        + "); Toolgate did not retry it.";
  }

  /** What an ambiguous write's answer adds when no lookup tool is configured. */
  public static final String NO_LOOKUP =
      " No lookup is configured: check the backend before relaunching.";

  /**
   * What the lookup of an ambiguous write found.
   *
   * @param found {@code accepted}, {@code not_found} or {@code unknown}
   * @param lookupResult the lookup attempt's own result class, when it did not tell
   */
  public static String lookupFound(String found, String operationId, ResultClass lookupResult) {
    return switch (found) {
      case "accepted" ->
          " Looking it up by its idempotency key found operation "
              + operationId
              + " accepted: do not relaunch it.";
      case "not_found" ->
          " Looking it up by its idempotency key found no operation: it was most"
              + " likely not executed; relaunch only after checking.";
      default ->
          " Looking it up by its idempotency key did not tell ("
              + lookupResult.wireName()
              + "): check the backend before relaunching.";
    };
  }

  /**
   * An open (or half-open, busy) circuit.
   *
   * @param state the circuit's state's wire name
   * @param probeInSeconds when the next probe may run, 0 when unknown
   */
  public static String circuitRefused(
      String tool, String upstream, String state, String incident, long probeInSeconds) {
    return "The circuit of "
        + tool
        + " on '"
        + upstream
        + "' is "
        + state.replace('_', '-')
        + " (incident "
        + incident
        + (probeInSeconds > 0 ? "; next probe in about " + probeInSeconds + " s" : "")
        + "). No write action was performed.";
  }
}
