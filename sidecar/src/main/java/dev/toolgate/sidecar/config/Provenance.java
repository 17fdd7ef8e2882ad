package dev.toolgate.sidecar.config;

/**
 * Where a configuration came from and who vouches for it.
 *
 * @param origin the file or the operator's publication in the shared state
 * @param keyId the id of the operator key that signed it; null for an unsigned file, accepted only
 *     with {@code --allow-unsigned-config}
 * @param sequence the signed publication number (0 when unsigned)
 * @param rollback whether the operator signed it as a rollback
 */
public record Provenance(ConfigOrigin origin, String keyId, long sequence, boolean rollback) {

  public static Provenance unsigned(ConfigOrigin origin) {
    return new Provenance(origin, null, 0, false);
  }

  public boolean signed() {
    return keyId != null;
  }

  /** One phrase for the log and {@code --check}. */
  public String describe() {
    return signed()
        ? "signed by key " + keyId + ", publication " + sequence + (rollback ? ", a rollback" : "")
        : "unsigned (--allow-unsigned-config)";
  }
}
