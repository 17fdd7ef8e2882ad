package dev.toolgate.sidecar.config;

import dev.toolgate.policy.config.SidecarConfig;
import dev.toolgate.sidecar.approval.ApprovalTokens;
import java.time.Instant;

/**
 * A configuration that passed validation, with what identifies it.
 *
 * @param config the parsed configuration
 * @param hash the SHA-256 of the document's bytes (its signature line included), hex, so two
 *     sidecars can tell they run the same document
 * @param loadedAt when this sidecar loaded it
 * @param approvalTokens verifies approval tokens; null when no key is configured
 * @param provenance where it came from and who signed it
 */
public record LoadedConfig(
    SidecarConfig config,
    String hash,
    Instant loadedAt,
    ApprovalTokens approvalTokens,
    Provenance provenance) {

  /** The short form shown in events and metrics. */
  public String shortHash() {
    return hash.substring(0, 12);
  }

  /** The same identity and provenance for another configuration (the warm-up's private copy). */
  public LoadedConfig with(SidecarConfig other) {
    return new LoadedConfig(other, hash, loadedAt, approvalTokens, provenance);
  }
}
