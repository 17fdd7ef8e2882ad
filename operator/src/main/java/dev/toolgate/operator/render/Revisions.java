package dev.toolgate.operator.render;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The revisions of a ToolPolicy, decided from what exists (Strimzi's split: this model computes,
 * the reconciler applies). A revision is an immutable rendered configuration; a changed spec makes
 * a new one, an unchanged spec none; the active one is the newest, unless a rollback names another.
 */
public final class Revisions {

  /** How many revisions are kept; older ones are pruned, never the active one. */
  public static final int KEPT = 10;

  public static final String LABEL_POLICY = "toolgate.dev/policy";
  public static final String LABEL_REVISION = "toolgate.dev/revision";
  public static final String ANNOTATION_SPEC_HASH = "toolgate.dev/spec-hash";

  /** {@code kubectl annotate toolpolicy NAME toolgate.dev/rollback-to=N --overwrite}. */
  public static final String ANNOTATION_ROLLBACK_TO = "toolgate.dev/rollback-to";

  public static final String CONFIG_KEY = "sidecar.yaml";

  private Revisions() {}

  /** An existing revision: its number and the hash of the spec it was rendered from. */
  public record Existing(long revision, String specHash) {}

  /**
   * What the reconciler must do.
   *
   * @param create the revision to create, 0 when the spec is already rendered
   * @param active the revision the sidecars must receive
   * @param previous the revision active before it, 0 when none
   * @param reason why that revision is active
   * @param prune the revisions to delete
   * @param error why nothing can be activated (a rollback to a revision that does not exist)
   */
  public record Plan(
      long create, long active, long previous, String reason, List<Long> prune, String error) {}

  public static String revisionName(String policy, long revision) {
    return policy + "-r" + revision;
  }

  public static String activeName(String policy) {
    return "toolgate-" + policy;
  }

  public static Plan plan(
      String specHash, List<Existing> existing, Long rollbackTo, long currentlyActive) {
    List<Existing> sorted =
        existing.stream().sorted(Comparator.comparingLong(Existing::revision)).toList();
    long newest = sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1).revision();
    Optional<Existing> sameSpec =
        sorted.stream()
            .filter(e -> e.specHash().equals(specHash))
            .max(Comparator.comparingLong(Existing::revision));
    boolean changed = sameSpec.isEmpty() || sameSpec.get().revision() != newest;
    long create = changed ? newest + 1 : 0;
    long latest = changed ? create : newest;
    long active;
    String reason;
    if (rollbackTo != null) {
      boolean exists = sorted.stream().anyMatch(e -> e.revision() == rollbackTo);
      if (!exists) {
        return new Plan(
            create,
            currentlyActive,
            0,
            null,
            List.of(),
            "rollback to revision "
                + rollbackTo
                + " asked, but it does not exist (kept: "
                + sorted.stream().map(Existing::revision).toList()
                + ")");
      }
      active = rollbackTo;
      reason =
          "rolled back to revision " + rollbackTo + " (annotation " + ANNOTATION_ROLLBACK_TO + ")";
    } else {
      active = latest;
      reason =
          changed ? "revision " + latest + " rendered from the current spec" : "spec unchanged";
    }
    long previous = currentlyActive != active ? currentlyActive : 0;
    List<Long> all = new java.util.ArrayList<>(sorted.stream().map(Existing::revision).toList());
    if (create > 0) {
      all.add(create);
    }
    List<Long> prune =
        all.size() <= KEPT
            ? List.of()
            : all.subList(0, all.size() - KEPT).stream().filter(r -> r != active).toList();
    return new Plan(create, active, previous, reason, prune, null);
  }

  /** Labels of a revision's ConfigMap. */
  public static Map<String, String> labels(String policy, long revision) {
    return Map.of(LABEL_POLICY, policy, LABEL_REVISION, Long.toString(revision));
  }
}
