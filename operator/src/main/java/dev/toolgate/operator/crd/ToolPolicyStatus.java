package dev.toolgate.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/** What the operator reports about a ToolPolicy: which revision the sidecars run, and why. */
public class ToolPolicyStatus {

  @JsonPropertyDescription("The generation of the spec the operator last acted on.")
  public Long observedGeneration;

  @JsonPropertyDescription("The revision of the configuration the sidecars receive.")
  public Long activeRevision;

  @JsonPropertyDescription("The revision before the active one, the natural rollback target.")
  public Long previousRevision;

  @JsonPropertyDescription(
      "Why the active revision is the active one (applied, rolled back, kept after an invalid"
          + " spec).")
  public String activeReason;

  @JsonPropertyDescription("The last activations, newest first (at most 5).")
  public List<Activation> history = new ArrayList<>();

  public static final int HISTORY_KEPT = 5;

  /** One activation of a revision. */
  public static class Activation {
    @JsonPropertyDescription("The revision activated.")
    public Long revision;

    @JsonPropertyDescription("Why: applied, rolled back, or kept after an invalid spec.")
    public String reason;

    @JsonPropertyDescription("When, as an RFC 3339 time.")
    public String at;
  }

  @JsonPropertyDescription(
      "Ready (the sidecars receive the active revision) and Valid (the spec passes validation),"
          + " each with a reason and a message.")
  public List<Condition> conditions = new ArrayList<>();

  /** A condition in the Kubernetes style. */
  public static class Condition {
    @JsonPropertyDescription("Ready or Valid.")
    public String type;

    @JsonPropertyDescription("True, False or Unknown.")
    public String status;

    @JsonPropertyDescription("The generation of the spec this condition was computed from.")
    public Long observedGeneration;

    @JsonPropertyDescription("A CamelCase word for why the condition has its status.")
    public String reason;

    @JsonPropertyDescription("What a human needs to know about it.")
    public String message;

    @JsonPropertyDescription("When the status last changed, as an RFC 3339 time.")
    public String lastTransitionTime;
  }
}
