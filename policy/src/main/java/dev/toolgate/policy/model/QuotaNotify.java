package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;

/** Who is told when a write quota blocks a session (seed 002: an administrator checks each one). */
public record QuotaNotify(
    @JsonPropertyDescription("An HTTPS endpoint that receives a signed JSON notification.")
        @Size(max = Bounds.URL_LENGTH)
        @Pattern("^https://")
        String webhookUrl,
    @JsonPropertyDescription(
            "A file holding the HMAC key that signs notifications (header "
                + "`Toolgate-Signature: t=<epoch seconds>,v1=<hex HMAC-SHA256 of \"t.body\">`).")
        @Size(max = Bounds.FILE_LENGTH)
        String secretFile,
    @JsonPropertyDescription(
            "A PEM file of certificate authorities to trust for the webhook, besides the "
                + "system's; optional.")
        @Size(max = Bounds.FILE_LENGTH)
        String caFile) {}
