package dev.toolgate.e2e.support;

/**
 * A sidecar configuration with one upstream, no tool rule, local state and quotas out of reach: the
 * sidecar as a plain MCP proxy (every call still parsed, counted and written as an event).
 */
public final class PassThroughConfig {

  /** The upstream's name: agents call {@code /mcp/deployment-api}. */
  public static final String UPSTREAM = "deployment-api";

  private PassThroughConfig() {}

  /** The YAML, listening on 127.0.0.1; {@code upstreamMcpUrl} is the backend's MCP endpoint. */
  public static String yaml(int listenPort, int adminPort, String upstreamMcpUrl) {
    return """
        listen: {host: 127.0.0.1, port: %d}
        admin: {host: 127.0.0.1, port: %d}
        sharedState: {mode: local}
        upstreams:
          - {name: %s, url: "%s"}
        quotas: {perSession: {read: 1000000000, write: 1000000000}, ratePerMinute: 1000000000}
        """
        .formatted(listenPort, adminPort, UPSTREAM, upstreamMcpUrl);
  }
}
