package dev.toolgate.policy.model;

/**
 * Who is told when a write quota blocks a session (seed 002: an administrator checks each one).
 *
 * @param webhookUrl an HTTPS endpoint that receives a signed JSON notification
 * @param secretFile a file holding the HMAC key that signs notifications (header
 *     {@code Toolgate-Signature: t=<epoch seconds>,v1=<hex HMAC-SHA256 of "t.body">})
 * @param caFile a PEM file of certificate authorities to trust for the webhook, besides the
 *     system's; optional
 */
public record QuotaNotify(String webhookUrl, String secretFile, String caFile) {}
