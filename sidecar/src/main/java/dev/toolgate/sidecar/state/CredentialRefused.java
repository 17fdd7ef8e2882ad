package dev.toolgate.sidecar.state;

/**
 * The shared state answered, and refused this sidecar's credential (an expired, rotated-away or
 * foreign token): not an outage, and not something a retry fixes until the credential changes.
 */
public final class CredentialRefused extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CredentialRefused(String message) {
    super(message, null, false, false);
  }
}
