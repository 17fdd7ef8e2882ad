package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Where the key that verifies approval tokens lives. */
public record ApprovalOptions(
    @JsonPropertyDescription(
            "A file holding the HMAC key (at least 32 bytes; a Kubernetes Secret mounts "
                + "it); a relative path is resolved against the configuration file's directory.")
        String keyFile) {
  public static final ApprovalOptions NONE = new ApprovalOptions(null);
}
