package dev.toolgate.policy.config;

/**
 * Where the key that verifies approval tokens lives.
 *
 * @param keyFile a file holding the HMAC key (at least 32 bytes; a Kubernetes Secret mounts it);
 *     a relative path is resolved against the configuration file's directory
 */
public record ApprovalOptions(String keyFile) {
  public static final ApprovalOptions NONE = new ApprovalOptions(null);
}
