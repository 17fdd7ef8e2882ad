package dev.toolgate.policy.model;

/**
 * Blocks every write while read-only diagnostics keep working (seed 000, rollback section).
 *
 * @param blockWrites when true, calls of write tools are refused with {@code writes_blocked}
 */
public record KillSwitch(boolean blockWrites) {
  public static final KillSwitch OFF = new KillSwitch(false);
}
