package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** An MCP server the sidecar forwards to, reachable by agents at {@code /mcp/<name>}. */
public record Upstream(
    @JsonPropertyDescription("The path segment agents use; letters, digits, '-' and '_'.")
        @Required
        @Size(max = MAX_NAME_LENGTH)
        @Pattern(NAME_PATTERN)
        String name,
    @JsonPropertyDescription(
            "The server's MCP endpoint (Streamable HTTP) or SSE endpoint (legacy HTTP+SSE).")
        @Required
        @Size(max = Bounds.URL_LENGTH)
        @Pattern("^https?://[^/?#]+")
        String url,
    @JsonPropertyDescription(
            "The credential the sidecar sends to this upstream in the agent's place; none when "
                + "absent.")
        UpstreamAuth auth,
    @JsonPropertyDescription(
            "Paths of the upstream's origin, besides its MCP endpoint and the legacy message"
                + " endpoint it announces, that agents may reach at /mcp/<name><path>; none by"
                + " default.")
        @Size(max = MAX_RELAY_PATHS)
        List<@Size(min = 2, max = MAX_RELAY_PATH_LENGTH) @Pattern("^/") String> relayPaths) {

  /** Upstream names are URL path segments. */
  public static final String NAME_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$";

  public static final int MAX_NAME_LENGTH = 63;

  /** The most extra paths an upstream may relay, and the longest. */
  public static final int MAX_RELAY_PATHS = 32;

  public static final int MAX_RELAY_PATH_LENGTH = 256;

  public Upstream {
    relayPaths = relayPaths == null ? List.of() : List.copyOf(relayPaths);
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
