package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** An MCP server the sidecar forwards to, reachable by agents at {@code /mcp/<name>}. */
public record Upstream(
    @JsonPropertyDescription("The path segment agents use; letters, digits, '-' and '_'.")
        String name,
    @JsonPropertyDescription(
            "The server's MCP endpoint (Streamable HTTP) or SSE endpoint (legacy HTTP+SSE).")
        String url) {}
