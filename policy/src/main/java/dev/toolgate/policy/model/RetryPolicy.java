package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.toolgate.policy.outcome.ResultClass;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Bounded retries of one tool. */
public record RetryPolicy(
    @JsonPropertyDescription("Attempts in all, the first included; 1 means no retry.")
        @Min(1)
        @Max(MAX_ATTEMPTS)
        Integer maxAttempts,
    @JsonPropertyDescription(
            "The result classes that may be retried: `transport_unavailable`, `backend_429`, "
                + "`backend_503`, `backend_5xx_other`, `upstream_closed`, `timeout`.")
        @Size(max = Bounds.ITEMS)
        List<ResultClass> retryOn,
    @JsonPropertyDescription("The delay between attempts.") Backoff backoff) {
  public static final int DEFAULT_MAX_ATTEMPTS = 1;

  /** The most attempts a policy may allow one call: retries stay bounded. */
  public static final int MAX_ATTEMPTS = 10;

  /** No retry: the default of a tool the policy does not name. */
  public static final RetryPolicy NONE = new RetryPolicy(1, List.of(), Backoff.DEFAULT);

  public RetryPolicy {
    maxAttempts = maxAttempts == null ? DEFAULT_MAX_ATTEMPTS : maxAttempts;
    retryOn = retryOn == null ? List.of() : List.copyOf(retryOn);
    backoff = backoff == null ? Backoff.DEFAULT : backoff;
  }
}
