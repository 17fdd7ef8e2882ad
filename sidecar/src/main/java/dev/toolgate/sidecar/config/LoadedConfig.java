package dev.toolgate.sidecar.config;

import dev.toolgate.policy.config.SidecarConfig;
import dev.toolgate.sidecar.approval.ApprovalTokens;
import java.time.Instant;

/**
 * A configuration that passed validation, with what identifies it.
 *
 * @param config the parsed configuration
 * @param hash the SHA-256 of the file's bytes, hex, so two sidecars can tell they run the same file
 * @param loadedAt when this sidecar loaded it
 * @param approvalTokens verifies approval tokens; null when no key is configured
 */
public record LoadedConfig(
    SidecarConfig config, String hash, Instant loadedAt, ApprovalTokens approvalTokens) {

  /** The short form shown in events and metrics. */
  public String shortHash() {
    return hash.substring(0, 12);
  }
}
