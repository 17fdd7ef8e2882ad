package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.model.Upstream;
import org.junit.jupiter.api.Test;

class UpstreamRouteTest {

  private final UpstreamRoute sse =
      UpstreamRoute.of(new Upstream("legacy", "http://10.0.0.5:9000/sse?tenant=a"));

  @Test
  void sendsTheExactProxyPathToTheUpstreamUrlKeepingBothQueries() {
    assertThat(sse.upstreamUri("", "x=1")).isEqualTo("/sse?tenant=a&x=1");
    assertThat(sse.upstreamUri("", null)).isEqualTo("/sse?tenant=a");
  }

  @Test
  void sendsASubPathToTheUpstreamsOrigin() {
    assertThat(sse.upstreamUri("/messages", "sessionId=42")).isEqualTo("/messages?sessionId=42");
  }

  @Test
  void rewritesALegacyEndpointOnTheSameOriginToASidecarPath() {
    assertThat(ProxyHandler.LegacyEndpoint.rewrite(sse, "/messages?sessionId=42"))
        .isEqualTo("/mcp/legacy/messages?sessionId=42");
    assertThat(ProxyHandler.LegacyEndpoint.rewrite(sse, "http://10.0.0.5:9000/m/post"))
        .isEqualTo("/mcp/legacy/m/post");
    assertThat(ProxyHandler.LegacyEndpoint.rewrite(sse, "messages"))
        .isEqualTo("/mcp/legacy/messages");
  }

  @Test
  void refusesALegacyEndpointOnAnotherOrigin() {
    assertThat(ProxyHandler.LegacyEndpoint.rewrite(sse, "http://evil.example/messages")).isNull();
    assertThat(ProxyHandler.LegacyEndpoint.rewrite(sse, "https://10.0.0.5:9000/messages")).isNull();
  }

  @Test
  void defaultsPortsByScheme() {
    UpstreamRoute tls = UpstreamRoute.of(new Upstream("s", "https://mcp.example.com/mcp"));

    assertThat(tls.port()).isEqualTo(443);
    assertThat(tls.ssl()).isTrue();
  }
}
