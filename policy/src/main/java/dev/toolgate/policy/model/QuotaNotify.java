package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Who is told when a write quota blocks a session (seed 002: an administrator checks each one). */
public record QuotaNotify(
    @JsonPropertyDescription("An HTTPS endpoint that receives a signed JSON notification.")
        String webhookUrl,
    @JsonPropertyDescription(
            "A file holding the HMAC key that signs notifications (header "
                + "`Toolgate-Signature: t=<epoch seconds>,v1=<hex HMAC-SHA256 of \"t.body\">`).")
        String secretFile,
    @JsonPropertyDescription(
            "A PEM file of certificate authorities to trust for the webhook, besides the "
                + "system's; optional.")
        String caFile) {}
