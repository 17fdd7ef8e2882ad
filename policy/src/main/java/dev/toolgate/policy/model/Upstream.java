package dev.toolgate.policy.model;

/**
 * An MCP server the sidecar forwards to, reachable by agents at {@code /mcp/<name>}.
 *
 * @param name the path segment agents use; letters, digits, '-' and '_'
 * @param url the server's MCP endpoint (Streamable HTTP) or SSE endpoint (legacy HTTP+SSE)
 */
public record Upstream(String name, String url) {}
