package dev.toolgate.policy.validation;

import java.util.List;
import java.util.stream.Collectors;

/** Thrown when a policy breaks one or more rules; the message lists every violation. */
public final class InvalidPolicyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient List<Violation> violations;

  public InvalidPolicyException(List<Violation> violations) {
    super(
        "invalid policy: "
            + violations.stream().map(Violation::toString).collect(Collectors.joining("; ")));
    this.violations = List.copyOf(violations);
  }

  public List<Violation> violations() {
    return violations;
  }
}
