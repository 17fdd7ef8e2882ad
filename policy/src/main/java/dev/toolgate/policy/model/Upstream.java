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
        UpstreamAuth auth,
    @JsonPropertyDescription(
            "Paths of the upstream's origin, besides its MCP endpoint and the legacy message"
                + " endpoint it announces, that agents may reach at /mcp/<name><path>; none by"
                + " default.")
        java.util.List<String> relayPaths) {

  public Upstream {
    relayPaths = relayPaths == null ? java.util.List.of() : java.util.List.copyOf(relayPaths);
  }

  /** An upstream with a credential of the sidecar's and no other path relayed. */
  public Upstream(String name, String url, UpstreamAuth auth) {
    this(name, url, auth, null);
  }

  /** An upstream without a credential of the sidecar's. */
  public Upstream(String name, String url) {
    this(name, url, null, null);
  }

  /** The same upstream at another URL. */
  public Upstream withUrl(String other) {
    return new Upstream(name, other, auth, relayPaths);
  }

  /** The same upstream with another credential. */
  public Upstream withAuth(UpstreamAuth other) {
    return new Upstream(name, url, other, relayPaths);
  }
}
