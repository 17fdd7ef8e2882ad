package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.support.SdkServer;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The official MCP Java SDK on both sides of the sidecar: a client and a server written by others
 * must work through it exactly as they work directly.
 */
class McpSdkThroughSidecarIT {

  @TempDir Path dir;
  private SdkServer server;
  private SidecarFixture f;
  private McpSyncClient client;

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (f != null) {
      f.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private void through(SdkServer sdkServer, String upstreamPath) throws Exception {
    server = sdkServer;
    f = SidecarFixture.start(dir, Map.of("sdk", server.url(upstreamPath)), "");
  }

  private McpSyncClient streamableClient(
      String protocolVersion, List<McpSchema.ProgressNotification> progress) {
    URI sidecar = URI.create(f.url("sdk"));
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder("http://" + sidecar.getAuthority())
            .endpoint(sidecar.getPath())
            .supportedProtocolVersions(List.of(protocolVersion))
            .build();
    return McpClient.sync(transport)
        .requestTimeout(Duration.ofSeconds(15))
        .progressConsumer(
            n -> {
              progress.add(n);
              server.progressSeen.countDown();
            })
        .build();
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-03-26", "2025-06-18", "2025-11-25"})
  void initializesListsAndCallsWithProgressStreamedWhileTheCallRuns(String version)
      throws Exception {
    through(SdkServer.streamable(dir), "/mcp");
    List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
    client = streamableClient(version, progress);

    McpSchema.InitializeResult init = client.initialize();
    List<McpSchema.Tool> tools = client.listTools().tools();
    McpSchema.CallToolResult result =
        client.callTool(
            McpSchema.CallToolRequest.builder()
                .name("echo")
                .arguments(Map.of("text", "hi"))
                .progressToken("tok-1")
                .build());

    assertThat(init.protocolVersion()).isEqualTo(version);
    assertThat(tools).extracting(McpSchema.Tool::name).containsExactly("echo");
    assertThat(result.isError())
        .as("the server finished only after the client saw progress")
        .isFalse();
    assertThat(((McpSchema.TextContent) result.content().get(0)).text()).isEqualTo("echo: hi");
    assertThat(progress)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.progressToken()).isEqualTo("tok-1");
              assertThat(p.message()).isEqualTo("half way");
            });
    AttemptEvent event = f.events.first("echo");
    assertThat(event.result()).isEqualTo("success");
    assertThat(event.upstream()).isEqualTo("sdk");
  }

  @Test
  void carriesTheServersSessionIdBackOnEveryRequestAndDeletesItOnClose() throws Exception {
    through(SdkServer.streamable(dir), "/mcp");
    client = streamableClient("2025-11-25", new CopyOnWriteArrayList<>());
    client.initialize();
    client.callTool(
        McpSchema.CallToolRequest.builder().name("echo").arguments(Map.of("text", "a")).build());

    client.closeGracefully();
    client = null;

    List<SdkServer.Seen> seen = server.requests;
    String session =
        seen.stream()
            .map(SdkServer.Seen::sessionId)
            .filter(s -> s != null)
            .findFirst()
            .orElseThrow();
    assertThat(seen.get(0).method()).isEqualTo("POST");
    assertThat(seen.get(0).sessionId()).as("initialize carries no session").isNull();
    assertThat(seen.stream().skip(1).filter(s -> s.method().equals("POST")))
        .allSatisfy(s -> assertThat(s.sessionId()).isEqualTo(session));
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () ->
                assertThat(server.requests)
                    .anySatisfy(
                        s -> {
                          assertThat(s.method()).isEqualTo("DELETE");
                          assertThat(s.sessionId()).isEqualTo(session);
                        }));
    assertThat(f.events.first("echo").sessionKey()).isEqualTo(session);
  }

  @Test
  void relaysAStatelessServersJsonAnswers() throws Exception {
    through(SdkServer.stateless(dir), "/mcp");
    client = streamableClient("2025-06-18", new CopyOnWriteArrayList<>());

    client.initialize();
    McpSchema.CallToolResult result =
        client.callTool(
            McpSchema.CallToolRequest.builder()
                .name("echo")
                .arguments(Map.of("text", "json"))
                .build());

    assertThat(((McpSchema.TextContent) result.content().get(0)).text()).isEqualTo("echo: json");
    assertThat(f.events.first("echo").httpStatus()).isEqualTo(200);
  }

  @Test
  void carriesTheLegacyHttpPlusSseTransportAndKeepsItsPostsOnTheSidecar() throws Exception {
    through(SdkServer.legacySse(dir), "/sse");
    URI sidecar = URI.create(f.url("sdk"));
    client =
        McpClient.sync(
                HttpClientSseClientTransport.builder("http://" + sidecar.getAuthority())
                    .sseEndpoint(sidecar.getPath())
                    .build())
            .requestTimeout(Duration.ofSeconds(15))
            .build();

    client.initialize();
    McpSchema.CallToolResult result =
        client.callTool(
            McpSchema.CallToolRequest.builder()
                .name("echo")
                .arguments(Map.of("text", "old"))
                .build());

    assertThat(((McpSchema.TextContent) result.content().get(0)).text()).isEqualTo("echo: old");
    assertThat(server.requests)
        .filteredOn(s -> s.method().equals("POST"))
        .isNotEmpty()
        .allSatisfy(s -> assertThat(s.path()).isEqualTo("/messages"));
    AttemptEvent event = f.events.first("echo");
    assertThat(event.result()).isEqualTo("success");
    assertThat(event.httpStatus()).isBetween(200, 202);
  }
}
