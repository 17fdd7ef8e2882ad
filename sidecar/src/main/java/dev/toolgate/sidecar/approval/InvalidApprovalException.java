package dev.toolgate.sidecar.approval;

/** An approval token that is not one Toolgate minted with this key, or is malformed. */
public final class InvalidApprovalException extends Exception {
  private static final long serialVersionUID = 1L;

  public InvalidApprovalException(String message) {
    super(message);
  }
}
