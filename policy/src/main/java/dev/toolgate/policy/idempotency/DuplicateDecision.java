package dev.toolgate.policy.idempotency;

/**
 * What to do with a write whose key already has a record.
 *
 * @param verdict proceed, replay the stored answer, or refuse
 * @param reason why, for the agent and the event
 */
public record DuplicateDecision(Verdict verdict, String reason) {

  /** The possible outcomes. */
  public enum Verdict {
    /** No record: this call takes the key. */
    PROCEED,
    /** Completed with the same arguments: answer from the record, without calling the backend. */
    REPLAY,
    /** Another call with this key is running. */
    DUPLICATE_IN_FLIGHT,
    /** The key's write is ambiguous: answer with what is known, do not write again. */
    AMBIGUOUS,
    /** The key was used with other arguments. */
    ARGUMENTS_MISMATCH
  }

  /** Decides from the record found (or null) and this call's arguments hash. Pure. */
  public static DuplicateDecision of(IdempotencyRecord existing, String argumentsHash) {
    if (existing == null) {
      return new DuplicateDecision(Verdict.PROCEED, "first use of this key");
    }
    if (!existing.argumentsHash().equals(argumentsHash)) {
      return new DuplicateDecision(
          Verdict.ARGUMENTS_MISMATCH, "this idempotency key was used with other arguments");
    }
    return switch (existing.state()) {
      case IN_FLIGHT ->
          new DuplicateDecision(
              Verdict.DUPLICATE_IN_FLIGHT,
              "the same write is already running (correlation id "
                  + existing.correlationId()
                  + ")");
      case COMPLETED ->
          new DuplicateDecision(
              Verdict.REPLAY, "the same write already completed; its answer is replayed");
      case AMBIGUOUS ->
          new DuplicateDecision(
              Verdict.AMBIGUOUS,
              "the same write reached the backend earlier with an unknown outcome; it is not sent again");
    };
  }
}
