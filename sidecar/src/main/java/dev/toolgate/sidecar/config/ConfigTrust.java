package dev.toolgate.sidecar.config;

import dev.toolgate.trust.SignatureRefused;
import dev.toolgate.trust.SignedConfig;
import dev.toolgate.trust.TrustedKeys;
import java.util.List;

/**
 * Which configuration documents this sidecar applies. A document must carry the operator's
 * signature, checked against the public keys given to this sidecar's container (never against
 * anything the document or the network says); and, once one is running, a new one must be a later
 * publication, with a revision no lower than the running one unless the operator signed it as a
 * rollback. On one machine, {@code --allow-unsigned-config} lets an unsigned file through; a
 * publication read from the shared state must be signed whatever the flags.
 */
public final class ConfigTrust {

  /** A document older than or as old as the running one. */
  public static final String STALE = "stale";

  /** A lower revision not signed as a rollback. */
  public static final String DOWNGRADE = "downgrade";

  private final TrustedKeys keys;
  private final boolean unsignedFileAllowed;

  private ConfigTrust(TrustedKeys keys, boolean unsignedFileAllowed) {
    if (keys == null && !unsignedFileAllowed) {
      throw new IllegalArgumentException(
          "no configuration keys: give the operator's public keys, or allow an unsigned file"
              + " (one machine only)");
    }
    this.keys = keys;
    this.unsignedFileAllowed = unsignedFileAllowed;
  }

  /** Only documents signed by one of {@code keys}. */
  public static ConfigTrust signedBy(TrustedKeys keys) {
    return new ConfigTrust(keys, false);
  }

  /** Signed documents, and an unsigned file too ({@code keys} may be null). */
  public static ConfigTrust unsignedFileAllowed(TrustedKeys keys) {
    return new ConfigTrust(keys, true);
  }

  /** What this sidecar trusts, for {@code /config}. */
  public String describe() {
    String signed = keys == null ? "no keys" : "documents signed by " + keys.keyIds();
    return unsignedFileAllowed ? signed + "; an unsigned file (--allow-unsigned-config)" : signed;
  }

  /** The document's bytes to parse and its provenance, or why it is not trusted. */
  record Opened(byte[] document, Provenance provenance) {}

  Opened open(ConfigOrigin origin, String source, byte[] raw) throws ConfigException {
    boolean unsignedOk = unsignedFileAllowed && origin == ConfigOrigin.FILE;
    if (keys == null) {
      if (unsignedOk) {
        return new Opened(raw, Provenance.unsigned(origin));
      }
      throw new ConfigException(
          source,
          List.of(
              "a configuration from the "
                  + origin.label()
                  + " must be signed, and this sidecar was given no keys to check it with"),
          SignatureRefused.Reason.UNSIGNED.outcome());
    }
    try {
      SignedConfig signed = keys.verify(raw);
      return new Opened(
          signed.document(),
          new Provenance(origin, signed.keyId(), signed.sequence(), signed.rollback()));
    } catch (SignatureRefused e) {
      if (unsignedOk && e.reason() == SignatureRefused.Reason.UNSIGNED) {
        return new Opened(raw, Provenance.unsigned(origin));
      }
      throw new ConfigException(
          source, List.of("not trusted: " + e.getMessage()), e.reason().outcome());
    }
  }

  /**
   * Whether {@code next} may replace {@code running}: a later signed publication, and not a lower
   * revision unless signed as a rollback. An unsigned file (allowed on one machine) has no order.
   */
  static void checkSuccession(LoadedConfig running, LoadedConfig next, String source)
      throws ConfigException {
    Provenance was = running.provenance();
    Provenance is = next.provenance();
    if (!was.signed() || !is.signed()) {
      return;
    }
    if (is.sequence() <= was.sequence()) {
      throw new ConfigException(
          source,
          List.of(
              "publication "
                  + is.sequence()
                  + " (revision "
                  + next.config().revision()
                  + ") is not newer than the running publication "
                  + was.sequence()
                  + " (revision "
                  + running.config().revision()
                  + "): an older document replayed, or one that arrived late"),
          STALE);
    }
    if (next.config().revision() < running.config().revision() && !is.rollback()) {
      throw new ConfigException(
          source,
          List.of(
              "revision "
                  + next.config().revision()
                  + " is lower than the running revision "
                  + running.config().revision()
                  + " and not signed as a rollback"),
          DOWNGRADE);
    }
  }
}
