package dev.toolgate.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * An agent speaking Streamable HTTP by hand, for what the MCP Java SDK's client does not send: a
 * {@code notifications/cancelled} for a call under way, a GET stream resumed with {@code
 * Last-Event-ID}. One session on one replica.
 */
final class RawAgent {

  static final String ACCEPT = "application/json, text/event-stream";

  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final URI url;
  private final String session;

  RawAgent(Toolgate.Endpoint replica) throws IOException, InterruptedException {
    this.url = URI.create("http://127.0.0.1:" + replica.mcpPort() + "/mcp/" + LocalStack.UPSTREAM);
    HttpResponse<String> init =
        http.send(
            request(
                    """
                {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":
                "2025-06-18","capabilities":{},"clientInfo":{"name":"raw-agent","version":"1"}}}""")
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (init.statusCode() != 200) {
      throw new IllegalStateException("initialize: " + init.statusCode() + " " + init.body());
    }
    this.session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  }

  private HttpRequest.Builder request(String body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(url)
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "application/json")
            .header("Accept", ACCEPT)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    return session == null ? b : b.header("Mcp-Session-Id", session);
  }

  HttpResponse<String> post(String body) throws IOException, InterruptedException {
    return http.send(request(body).build(), HttpResponse.BodyHandlers.ofString());
  }

  CompletableFuture<HttpResponse<String>> postAsync(String body) {
    return http.sendAsync(request(body).build(), HttpResponse.BodyHandlers.ofString());
  }

  static String toolCall(int id, String tool, String argumentsJson) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool
        + "\",\"arguments\":"
        + argumentsJson
        + "}}";
  }

  HttpResponse<String> cancel(int requestId) throws IOException, InterruptedException {
    return post(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
            + requestId
            + ",\"reason\":\"the user changed their mind\"}}");
  }

  /** The session's GET stream resumed after {@code lastEventId}, read to its end. */
  HttpResponse<String> resume(String lastEventId) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(url)
            .timeout(Duration.ofSeconds(20))
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", session)
            .header("Last-Event-ID", lastEventId)
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
