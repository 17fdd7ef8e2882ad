package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Where the public keys that verify approval tokens live. */
public record ApprovalOptions(
    @JsonPropertyDescription(
            "A file holding the approvers' public keys, a JWK set of Ed25519 keys with key ids"
                + " (from toolgate-sidecar approve keygen; a set holding a private key is"
                + " refused); a relative path is resolved against the configuration file's"
                + " directory.")
        String publicKeysFile) {
  public static final ApprovalOptions NONE = new ApprovalOptions(null);
}
