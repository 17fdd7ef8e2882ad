package dev.toolgate.sidecar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.sidecar.support.SidecarFixture;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connections a client holds: trickled headers and idle connections are closed, and past the limit
 * a new connection is closed as it opens, on the MCP and the admin listener, while the sidecar
 * keeps serving.
 */
class ConnectionLimitsIT {

  @TempDir Path dir;
  private SidecarFixture f;
  private final List<Socket> sockets = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (Socket s : sockets) {
      s.close();
    }
    if (f != null) {
      f.close();
    }
  }

  private void start(String runtime) throws Exception {
    f = SidecarFixture.start(dir, Map.of(), "runtime: {" + runtime + "}\n");
  }

  private int mcpPort() {
    return URI.create(f.url(SidecarFixture.API)).getPort();
  }

  private int adminPort() {
    return URI.create(f.adminUrl("/")).getPort();
  }

  /** A connection that sends part of a request's headers, then nothing more. */
  private Socket slowloris(int port) throws IOException {
    Socket s = new Socket("127.0.0.1", port);
    s.setSoTimeout(15_000);
    OutputStream out = s.getOutputStream();
    out.write(
        "POST /mcp/deployment-api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: "
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    sockets.add(s);
    return s;
  }

  /** Whether the server closed the connection: a read ends (-1) or is reset. */
  private static boolean closedByTheServer(Socket s) {
    try {
      InputStream in = s.getInputStream();
      return in.read() == -1;
    } catch (java.net.SocketTimeoutException stillOpen) {
      return false;
    } catch (IOException reset) {
      return true;
    }
  }

  private static boolean closedWithin100Ms(Socket s) {
    try {
      s.setSoTimeout(100);
    } catch (IOException e) {
      return true;
    }
    return closedByTheServer(s);
  }

  private boolean serves() throws Exception {
    return f.send(HttpRequest.newBuilder(URI.create(f.adminUrl("/healthz")))).statusCode() == 200;
  }

  @Test
  void connectionsTricklingTheirHeadersAreClosedAfterTheHeaderTimeoutOnBothListeners()
      throws Exception {
    start("headerTimeoutMs: 300");
    List<Socket> mcp = new ArrayList<>();
    List<Socket> admin = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      mcp.add(slowloris(mcpPort()));
      admin.add(slowloris(adminPort()));
    }

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              assertThat(mcp).allMatch(ConnectionLimitsIT::closedByTheServer);
              assertThat(admin).allMatch(ConnectionLimitsIT::closedByTheServer);
            });
    assertThat(serves()).isTrue();
  }

  @Test
  void anIdleConnectionIsClosedAfterTheIdleTimeout() throws Exception {
    start("idleTimeoutSeconds: 1");
    Socket s = new Socket("127.0.0.1", mcpPort());
    sockets.add(s);
    s.setSoTimeout(10_000);
    long started = System.nanoTime();

    assertThat(closedByTheServer(s)).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isBetween(Duration.ofMillis(500), Duration.ofSeconds(8));
  }

  @Test
  void pastTheLimitANewConnectionIsClosedAsItOpensAndOneIsServedOnceOthersClose() throws Exception {
    start("maxConnections: 8, headerTimeoutMs: 60000");
    List<Socket> held = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      held.add(slowloris(mcpPort()));
    }

    // The listener accepts the eight in the background: one more is closed once it holds them.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              Socket extra = slowloris(mcpPort());
              extra.setSoTimeout(500);
              return closedByTheServer(extra);
            });

    assertThat(held).noneMatch(ConnectionLimitsIT::closedWithin100Ms);
    for (Socket s : held) {
      s.close();
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(
                        f.send(
                                f.post(
                                    SidecarFixture.API,
                                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"))
                            .statusCode())
                    .isLessThan(500));
  }
}
