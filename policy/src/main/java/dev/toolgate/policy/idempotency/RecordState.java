package dev.toolgate.policy.idempotency;

/** Where a write with a given idempotency key stands. */
public enum RecordState {
  /** An attempt is running. */
  IN_FLIGHT,
  /** The backend answered; the answer is kept and replayed. */
  COMPLETED,
  /** The write reached the backend and its outcome is unknown. */
  AMBIGUOUS
}
