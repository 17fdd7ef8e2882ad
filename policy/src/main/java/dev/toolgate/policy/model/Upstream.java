package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** An MCP server the sidecar forwards to, reachable by agents at {@code /mcp/<name>}. */
public record Upstream(
    @JsonPropertyDescription("The path segment agents use; letters, digits, '-' and '_'.")
        String name,
    @JsonPropertyDescription(
            "The server's MCP endpoint (Streamable HTTP) or SSE endpoint (legacy HTTP+SSE).")
        String url,
    @JsonPropertyDescription(
            "The credential the sidecar sends to this upstream in the agent's place; none when "
                + "absent.")
        UpstreamAuth auth) {

  /** An upstream without a credential of the sidecar's. */
  public Upstream(String name, String url) {
    this(name, url, null);
  }

  /** The same upstream at another URL. */
  public Upstream withUrl(String other) {
    return new Upstream(name, other, auth);
  }
}
