package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;

class HopTest {

  private static MultiMap agentHeaders() {
    return MultiMap.caseInsensitiveMultiMap()
        .add("Connection", "keep-alive")
        .add("TRANSFER-ENCODING", "chunked")
        .add("Host", "127.0.0.1:17000")
        .add("content-length", "120")
        .add("Toolgate-Approval", "token")
        .add("TOOLGATE-Deadline-Ms", "5000")
        .add("Accept-Encoding", "gzip")
        .add("Authorization", "Bearer agent")
        .add("Mcp-Session-Id", "s-1")
        .add("Accept", "application/json")
        .add("Accept", "text/event-stream");
  }

  @Test
  void leavesOutHopByHopToolgateAndEncodingHeadersWhateverTheirCase() {
    MultiMap upstream = MultiMap.caseInsensitiveMultiMap();

    Hop.copyRequest(agentHeaders(), upstream);

    assertThat(upstream.names())
        .containsExactlyInAnyOrder("Authorization", "Mcp-Session-Id", "Accept");
    assertThat(upstream.getAll("accept")).containsExactly("application/json", "text/event-stream");
  }

  @Test
  void copiesAResponseWithoutItsHopByHopHeadersButWithEverythingElse() {
    MultiMap to = MultiMap.caseInsensitiveMultiMap();

    Hop.copy(agentHeaders(), to);

    assertThat(to.names())
        .containsExactlyInAnyOrder(
            "Toolgate-Approval",
            "TOOLGATE-Deadline-Ms",
            "Accept-Encoding",
            "Authorization",
            "Mcp-Session-Id",
            "Accept");
  }
}
