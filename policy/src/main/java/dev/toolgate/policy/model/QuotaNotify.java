package dev.toolgate.policy.model;

/**
 * Who is told when a write quota blocks a session.
 *
 * @param webhookUrl an HTTPS endpoint that receives a signed notification
 */
public record QuotaNotify(String webhookUrl) {}
