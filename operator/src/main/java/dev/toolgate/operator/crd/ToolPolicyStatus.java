package dev.toolgate.operator.crd;

import java.util.ArrayList;
import java.util.List;

/** What the operator reports about a ToolPolicy: which revision the sidecars run, and why. */
public class ToolPolicyStatus {

  /** The generation the operator last acted on. */
  public Long observedGeneration;

  /** The revision the sidecars receive. */
  public Long activeRevision;

  /** The revision before it, the natural rollback target. */
  public Long previousRevision;

  /**
   * Why the active revision is the active one (applied, rolled back, kept after an invalid spec).
   */
  public String activeReason;

  /** The last activations, newest first (at most {@link #HISTORY_KEPT}). */
  public List<Activation> history = new ArrayList<>();

  public static final int HISTORY_KEPT = 5;

  /** One activation of a revision. */
  public static class Activation {
    public Long revision;
    public String reason;
    public String at;
  }

  /** {@code Ready} and {@code Valid}, each with a reason and a message. */
  public List<Condition> conditions = new ArrayList<>();

  /** A condition in the Kubernetes style. */
  public static class Condition {
    public String type;
    public String status;
    public String reason;
    public String message;
    public String lastTransitionTime;
  }
}
