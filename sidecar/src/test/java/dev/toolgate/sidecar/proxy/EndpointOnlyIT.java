package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.sidecar.support.RawHttp;
import dev.toolgate.sidecar.support.SidecarFixture;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only the MCP endpoint is relayed: another path of the upstream's origin (the demo backend's own
 * ledger) and paths that climb out of /mcp/<upstream> are refused by the sidecar, and reach
 * nothing.
 */
class EndpointOnlyIT {

  @TempDir Path dir;
  private SidecarFixture f;

  @BeforeEach
  void start() throws Exception {
    f = SidecarFixture.start(dir);
  }

  @AfterEach
  void stop() throws Exception {
    f.close();
  }

  /** The status line and the body of a GET of {@code rawPath}, sent as written. */
  private String[] get(String rawPath) throws Exception {
    RawHttp.Answer answer =
        RawHttp.exchange(
            URI.create(f.url(SidecarFixture.API)).getPort(),
            "GET " + rawPath + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    return new String[] {answer.status(), answer.rest()};
  }

  @Test
  void anotherPathOfTheUpstreamsOriginIsNotRelayed() throws Exception {
    String[] ledger = get("/mcp/" + SidecarFixture.API + "/ledger");

    assertThat(ledger[0]).isEqualTo("HTTP/1.1 404 Not Found");
    assertThat(ledger[1]).contains("only the MCP endpoint").doesNotContain("callsReceived");
  }

  @Test
  void pathsThatClimbOutOfTheEndpointAreRefusedPlainOrEncoded() throws Exception {
    for (String path :
        new String[] {
          "/mcp/" + SidecarFixture.API + "/../../ledger",
          "/mcp/" + SidecarFixture.API + "/%2e%2e/ledger",
          "/mcp/" + SidecarFixture.API + "/..%2fledger",
          "/mcp//" + SidecarFixture.API
        }) {
      String[] answer = get(path);
      assertThat(answer[0]).as(path).isIn("HTTP/1.1 404 Not Found", "HTTP/1.1 400 Bad Request");
      assertThat(answer[1]).as(path).doesNotContain("callsReceived");
    }
  }

  @Test
  void aPathTheUpstreamsConfigurationNamesIsRelayed() throws Exception {
    SidecarFixture plain = f;
    f =
        SidecarFixture.replica(
            dir.resolve("relaying"),
            plain.backend,
            "upstreams:\n- {name: "
                + SidecarFixture.API
                + ", url: \""
                + plain.backend.mcpUrl()
                + "\", relayPaths: [/ledger]}\n");
    try {
      String[] ledger = get("/mcp/" + SidecarFixture.API + "/ledger");
      String[] faults = get("/mcp/" + SidecarFixture.API + "/faults");

      assertThat(ledger[0]).isEqualTo("HTTP/1.1 200 OK");
      assertThat(ledger[1]).contains("callsReceived");
      assertThat(faults[0]).as("a path it does not name").isEqualTo("HTTP/1.1 404 Not Found");
    } finally {
      f.close();
      f = plain;
    }
  }
}
