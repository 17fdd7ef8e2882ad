package dev.toolgate.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.sidecar.support.RawHttp;
import dev.toolgate.sidecar.support.SidecarFixture;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page on another site that rebinds its name to 127.0.0.1 sends its Origin and its own Host: the
 * MCP listener refuses both before any upstream sees the request, and serves the agent's own
 * requests (no Origin, a loopback Host).
 */
class DnsRebindingIT {

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

  static final String CALL =
      SidecarFixture.toolCall(1, "get_deployment_job", "{\"job_id\":\"j\"}", null);
  static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

  /** The status line of {@code body} sent with these Host and Origin headers. */
  private String status(String host, String origin, String body) throws Exception {
    String request =
        "POST /mcp/"
            + SidecarFixture.API
            + " HTTP/1.1\r\nHost: "
            + host
            + "\r\n"
            + (origin == null ? "" : "Origin: " + origin + "\r\n")
            + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            + "Content-Length: "
            + body.getBytes(StandardCharsets.UTF_8).length
            + "\r\nConnection: close\r\n\r\n"
            + body;
    return RawHttp.exchange(URI.create(f.url(SidecarFixture.API)).getPort(), request).status();
  }

  @Test
  void refusesAForeignOriginOrHostBeforeTheUpstreamAndServesTheAgent() throws Exception {
    long before = f.backend.ledger().callsReceived("get_deployment_job");

    String evilOrigin = status("127.0.0.1", "http://evil.example", CALL);
    String evilHost = status("evil.example", null, CALL);
    String agent = status("127.0.0.1", null, INITIALIZE);

    assertThat(evilOrigin).isEqualTo("HTTP/1.1 403 Forbidden");
    assertThat(evilHost).isEqualTo("HTTP/1.1 403 Forbidden");
    assertThat(agent).isEqualTo("HTTP/1.1 200 OK");
    assertThat(f.backend.ledger().callsReceived("get_deployment_job")).isEqualTo(before);
  }

  @Test
  void servesAnOriginTheConfigurationAllows() throws Exception {
    f.close();
    f =
        SidecarFixture.start(
            dir.resolve("allowed"),
            Map.of(),
            "listen: {host: 127.0.0.1, port: 0, allowedOrigins: [\"https://console.example\"]}\n");

    assertThat(status("localhost", "https://console.example", INITIALIZE))
        .isEqualTo("HTTP/1.1 200 OK");
    assertThat(status("localhost", "https://other.example", INITIALIZE))
        .isEqualTo("HTTP/1.1 403 Forbidden");
  }
}
