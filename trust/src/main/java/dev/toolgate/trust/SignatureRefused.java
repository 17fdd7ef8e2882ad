package dev.toolgate.trust;

import java.util.Locale;

/** A document whose signature cannot be trusted, and why. */
public final class SignatureRefused extends Exception {

  /** Why; {@link #outcome()} names it in metrics. */
  public enum Reason {
    /** No signature line. */
    UNSIGNED,
    /** A signature line that is not a JWS this format knows. */
    MALFORMED,
    /** Signed with a key the sidecar was not given. */
    UNKNOWN_KEY,
    /** The signature does not match the document: changed after signing, or forged. */
    BAD_SIGNATURE;

    public String outcome() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Reason reason;

  public SignatureRefused(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
