package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * The credential the sidecar adds to every request to an upstream, read from a file mounted into
 * the sidecar container alone: the agent never holds it, and any {@code Authorization} the agent
 * sends there is dropped. One of a bearer token or a header.
 */
public record UpstreamAuth(
    @JsonPropertyDescription(
            "A file holding a bearer token, sent as Authorization: Bearer <token>. In a "
                + "ToolPolicy, a key of the Secret toolgate-upstream-credentials, which the "
                + "injector mounts into the sidecar alone.")
        String bearerTokenFile,
    @JsonPropertyDescription("The name of a header to send instead of a bearer token.")
        String headerName,
    @JsonPropertyDescription(
            "A file holding that header's value (in a ToolPolicy, a key of the Secret "
                + "toolgate-upstream-credentials).")
        String headerValueFile) {

  /** The header this credential sets. */
  public String header() {
    return bearerTokenFile != null ? "Authorization" : headerName;
  }

  /** The file its value is read from. */
  public String file() {
    return bearerTokenFile != null ? bearerTokenFile : headerValueFile;
  }

  /** What goes before the file's content in the header. */
  public String prefix() {
    return bearerTokenFile != null ? "Bearer " : "";
  }

  /** The same credential with its file at {@code path}. */
  public UpstreamAuth withFile(String path) {
    return bearerTokenFile != null
        ? new UpstreamAuth(path, null, null)
        : new UpstreamAuth(null, headerName, path);
  }
}
