package dev.toolgate.sidecar.config;

import java.time.Instant;

/**
 * A configuration that passed validation, with what identifies it.
 *
 * @param config the parsed configuration
 * @param hash the SHA-256 of the file's bytes, hex, so two sidecars can tell they run the same file
 * @param loadedAt when this sidecar loaded it
 */
public record LoadedConfig(SidecarConfig config, String hash, Instant loadedAt) {

  /** The short form shown in events and metrics. */
  public String shortHash() {
    return hash.substring(0, 12);
  }
}
