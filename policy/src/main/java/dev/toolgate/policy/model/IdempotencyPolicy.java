package dev.toolgate.policy.model;

import java.util.List;

/**
 * How a write's idempotency key is derived and how its operation is found again.
 *
 * @param keyComponents {@code intent_id}, {@code approval_id}, {@code environment}, or a JSON
 *     pointer into the arguments such as {@code /job_id}
 * @param lookup the tool that finds an operation by key; absent means no automatic retry
 */
public record IdempotencyPolicy(List<String> keyComponents, Lookup lookup) {
  public IdempotencyPolicy {
    keyComponents = keyComponents == null ? List.of() : List.copyOf(keyComponents);
  }
}
