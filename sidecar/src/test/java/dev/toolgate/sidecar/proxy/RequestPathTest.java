package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RequestPathTest {

  @Test
  void aPlainPathPasses() {
    assertThat(RequestPath.problem("/mcp/deployment-api")).isNull();
    assertThat(RequestPath.problem("/mcp/deployment-api/messages")).isNull();
    assertThat(RequestPath.problem("/mcp/api/")).isNull();
  }

  @Test
  void dotSegmentsEmptySegmentsAndEncodedSeparatorsAreRefused() {
    assertThat(RequestPath.problem("/mcp/capture/../../x")).contains("'..' segment");
    assertThat(RequestPath.problem("/mcp/api/./x")).contains("'.' segment");
    assertThat(RequestPath.problem("/mcp/api/..")).contains("'..' segment");
    assertThat(RequestPath.problem("/mcp//api")).contains("empty segment");
    assertThat(RequestPath.problem("/mcp/api/%2e%2e/x")).contains("encoded");
    assertThat(RequestPath.problem("/mcp/api/%2F..")).contains("encoded");
    assertThat(RequestPath.problem("/mcp/api/%5c")).contains("encoded");
    assertThat(RequestPath.problem("/mcp/api\\..\\x")).contains("'\\'");
    assertThat(RequestPath.problem("mcp/api")).contains("start with '/'");
  }
}
