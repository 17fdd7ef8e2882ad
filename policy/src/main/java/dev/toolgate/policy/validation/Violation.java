package dev.toolgate.policy.validation;

/**
 * One broken rule of a policy.
 *
 * @param field the path of the field, e.g. {@code tools[1].retry.maxAttempts}
 * @param message what is wrong, naming the bad value
 */
public record Violation(String field, String message) {
  @Override
  public String toString() {
    return field + ": " + message;
  }
}
