package dev.toolgate.policy.idempotency;

import dev.toolgate.policy.json.CanonicalJson;
import dev.toolgate.policy.json.Hashes;
import dev.toolgate.policy.json.JsonPointer;
import dev.toolgate.policy.model.IdempotencyPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Derives a write's idempotency key from the configured components (seed 000: a stable intent, the
 * target, the approval). The key is a SHA-256 of the components' canonical text, so it holds no
 * argument value and no secret, and is the same on every replica. O(arguments).
 */
public final class IdempotencyKeys {

  public static final String PREFIX = "tgk_";

  private IdempotencyKeys() {}

  /** The key, or the names of the components that are missing from this call. */
  public record Derivation(String key, List<String> missing) {
    public boolean derived() {
      return key != null;
    }
  }

  public static Derivation derive(IdempotencyPolicy policy, KeyInputs inputs) {
    List<String> parts = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    parts.add(inputs.tool());
    for (String component : policy.keyComponents()) {
      Optional<String> value = component(component, inputs);
      if (value.isEmpty()) {
        missing.add(component);
      } else {
        parts.add(component + "=" + value.get());
      }
    }
    if (!missing.isEmpty()) {
      return new Derivation(null, List.copyOf(missing));
    }
    return new Derivation(PREFIX + Hashes.sha256(String.join("\n", parts)), List.of());
  }

  private static Optional<String> component(String name, KeyInputs in) {
    if (name.startsWith("/")) {
      return JsonPointer.resolve(in.arguments(), name).map(CanonicalJson::of);
    }
    return Optional.ofNullable(
        switch (name) {
          case "intent_id" -> in.intentId();
          case "approval_id" -> in.approvalId();
          case "session_id" -> in.sessionKey();
          case "tool" -> in.tool();
          default -> throw new IllegalArgumentException("unknown key component '" + name + "'");
        });
  }

  /** A hash of the canonical arguments: the same key with other arguments is refused. */
  public static String argumentsHash(Object arguments) {
    return argumentsHashOfCanonical(CanonicalJson.of(arguments));
  }

  /**
   * The same hash from the arguments' canonical text ({@link CanonicalJson#appendTo}), already
   * made.
   */
  public static String argumentsHashOfCanonical(CharSequence canonicalArguments) {
    return Hashes.sha256(canonicalArguments);
  }
}
