package dev.toolgate.e2e;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * An agent: the official MCP Java SDK's client, talking to one sidecar replica over Streamable
 * HTTP.
 */
final class Agent implements AutoCloseable {

  private final McpSyncClient client;

  Agent(Toolgate.Endpoint replica) {
    this(replica, null);
  }

  /** An agent that sends {@code authorization} on every request, as one holding a token would. */
  Agent(Toolgate.Endpoint replica, String authorization) {
    this(
        URI.create("http://127.0.0.1:" + replica.mcpPort() + "/mcp/" + LocalStack.UPSTREAM),
        authorization);
  }

  /** An agent calling {@code url} itself: the sidecar's upstream, around the sidecar. */
  Agent(URI url, String authorization) {
    HttpClientStreamableHttpTransport.Builder transport =
        HttpClientStreamableHttpTransport.builder(url.getScheme() + "://" + url.getAuthority())
            .endpoint(url.getPath());
    if (authorization != null) {
      transport.httpRequestCustomizer(
          (request, method, uri, body, context) -> request.header("Authorization", authorization));
    }
    client = McpClient.sync(transport.build()).requestTimeout(Duration.ofSeconds(30)).build();
    client.initialize();
  }

  McpSchema.CallToolResult call(
      String tool, Map<String, Object> arguments, Map<String, Object> meta) {
    McpSchema.CallToolRequest.Builder request =
        McpSchema.CallToolRequest.builder().name(tool).arguments(arguments);
    if (meta != null) {
      request.meta(meta);
    }
    return client.callTool(request.build());
  }

  /** The names {@code tools/list} gives. */
  List<String> listTools() {
    return client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
  }

  McpSchema.CallToolResult call(String tool, Map<String, Object> arguments) {
    return call(tool, arguments, null);
  }

  /**
   * The sidecar's explanation of an answer it made ({@code structuredContent.toolgate}), or an
   * empty map.
   */
  @SuppressWarnings("unchecked")
  static Map<String, Object> toolgate(McpSchema.CallToolResult result) {
    if (result.structuredContent() instanceof Map<?, ?> content
        && content.get("toolgate") instanceof Map<?, ?> t) {
      return (Map<String, Object>) t;
    }
    return Map.of();
  }

  /** {@code ok} for a backend success, else the sidecar's code (or {@code tool_error}). */
  static String code(McpSchema.CallToolResult result) {
    if (!Boolean.TRUE.equals(result.isError())) {
      return "ok";
    }
    Object code = toolgate(result).get("code");
    return code == null ? "tool_error" : code.toString();
  }

  static String text(McpSchema.CallToolResult result) {
    return result.content().stream()
        .filter(c -> c instanceof McpSchema.TextContent)
        .map(c -> ((McpSchema.TextContent) c).text())
        .findFirst()
        .orElse("");
  }

  @Override
  public void close() {
    client.closeGracefully();
  }
}
