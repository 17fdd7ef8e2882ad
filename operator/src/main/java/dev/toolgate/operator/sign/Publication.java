package dev.toolgate.operator.sign;

/**
 * What the operator's signature says about one publication of a configuration: its number, which
 * every sidecar requires to grow, and whether it rolls back to an older revision.
 *
 * @param sequence higher than every earlier publication of the policy
 * @param rollback whether the active revision is older than the newest one
 */
public record Publication(long sequence, boolean rollback) {

  /**
   * The next publication: numbered by the clock (milliseconds) so that a new leader, which has no
   * counter of its own, still numbers after its predecessor, and never below the last number
   * published, so that a clock behind by a few seconds cannot make it go back.
   *
   * @param previous the last publication's number, null when none
   */
  public static Publication next(
      Long previous, long nowMillis, long activeRevision, long newestRevision) {
    long sequence = previous == null ? nowMillis : Math.max(nowMillis, previous + 1);
    return new Publication(sequence, activeRevision < newestRevision);
  }
}
