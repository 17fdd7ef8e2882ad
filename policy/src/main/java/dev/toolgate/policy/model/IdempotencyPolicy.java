package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** How a write's idempotency key is derived and how its operation is found again. */
public record IdempotencyPolicy(
    @JsonPropertyDescription(
            "`intent_id`, `approval_id`, `tool`, `session_id`, or a JSON pointer into the "
                + "arguments such as `/job_id`.")
        @Size(max = Bounds.ITEMS)
        List<@Size(min = 1, max = Bounds.POINTER_LENGTH) String> keyComponents,
    @JsonPropertyDescription(
            "The tool that finds an operation by key; absent means no automatic retry.")
        Lookup lookup) {
  public IdempotencyPolicy {
    keyComponents = keyComponents == null ? List.of() : List.copyOf(keyComponents);
  }
}
