package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Blocks every write while read-only diagnostics keep working (seed 000, rollback section). */
public record KillSwitch(
    @JsonPropertyDescription("When true, calls of write tools are refused with `writes_blocked`.")
        boolean blockWrites) {
  public static final KillSwitch OFF = new KillSwitch(false);
}
