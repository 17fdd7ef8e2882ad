package dev.toolgate.sidecar.support;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.transport.HttpServletSseServerTransportProvider;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.Context;
import org.apache.catalina.Globals;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * An MCP server built with the official Java SDK, served by an embedded Tomcat on loopback: the
 * independent peer the sidecar must be transparent to. Records each HTTP request it receives.
 */
public final class SdkServer implements AutoCloseable {

  /** One HTTP request as the server saw it. */
  public record Seen(String method, String path, String sessionId, String protocolVersion) {}

  /** Released by the test once the client has seen the first progress notification. */
  public final CountDownLatch progressSeen = new CountDownLatch(1);

  public final List<Seen> requests = new CopyOnWriteArrayList<>();
  private final Tomcat tomcat;
  private final int port;
  private final Runnable closeServer;

  private SdkServer(HttpServlet servlet, Runnable closeServer, Path baseDir)
      throws LifecycleException {
    this.closeServer = closeServer;
    tomcat = new Tomcat();
    tomcat.setBaseDir(baseDir.toString());
    Connector connector = new Connector();
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    tomcat.getService().addConnector(connector);
    tomcat.setConnector(connector);
    Context context = tomcat.addContext("", baseDir.toString());
    Tomcat.addServlet(context, "mcp", servlet).setAsyncSupported(true);
    context.addServletMappingDecoded("/*", "mcp");
    FilterDef recorder = new FilterDef();
    recorder.setFilterName("recorder");
    recorder.setFilter(
        (Filter)
            (req, res, chain) -> {
              HttpServletRequest http = (HttpServletRequest) req;
              requests.add(
                  new Seen(
                      http.getMethod(),
                      http.getRequestURI(),
                      http.getHeader("Mcp-Session-Id"),
                      http.getHeader("MCP-Protocol-Version")));
              chain.doFilter(req, res);
            });
    recorder.setAsyncSupported("true");
    context.addFilterDef(recorder);
    FilterMap map = new FilterMap();
    map.setFilterName("recorder");
    map.addURLPattern("/*");
    context.addFilterMap(map);
    tomcat.start();
    port = connector.getLocalPort();
  }

  private static McpSchema.Tool echoTool() {
    return McpSchema.Tool.builder()
        .name("echo")
        .description("Echoes its text; reports progress first when asked to.")
        .inputSchema(
            Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string"))))
        .build();
  }

  private McpSchema.CallToolResult echo(Map<String, Object> args) {
    return McpSchema.CallToolResult.builder()
        .addTextContent("echo: " + args.get("text"))
        .isError(false)
        .build();
  }

  /** Streamable HTTP with sessions, at {@code /mcp}; the echo tool streams progress. */
  public static SdkServer streamable(Path baseDir) throws Exception {
    HttpServletStreamableServerTransportProvider transport =
        HttpServletStreamableServerTransportProvider.builder().mcpEndpoint("/mcp").build();
    SdkServer[] self = new SdkServer[1];
    var server =
        McpServer.sync(transport)
            .serverInfo("sdk-streamable", "1")
            .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
            .tools(
                McpServerFeatures.SyncToolSpecification.builder()
                    .tool(echoTool())
                    .callHandler(
                        (exchange, request) -> {
                          Object token = request.progressToken();
                          if (token != null) {
                            exchange.progressNotification(
                                new McpSchema.ProgressNotification(token, 1, 2.0, "half way"));
                            try {
                              // Finishes only once the client saw the progress: proves streaming.
                              if (!self[0].progressSeen.await(10, TimeUnit.SECONDS)) {
                                return McpSchema.CallToolResult.builder()
                                    .addTextContent("progress never reached the client")
                                    .isError(true)
                                    .build();
                              }
                            } catch (InterruptedException e) {
                              Thread.currentThread().interrupt();
                            }
                          }
                          return self[0].echo(request.arguments());
                        })
                    .build())
            .build();
    self[0] = new SdkServer(transport, server::close, Files.createTempDirectory(baseDir, "tomcat"));
    return self[0];
  }

  /** Stateless Streamable HTTP at {@code /mcp}: answers with plain JSON. */
  public static SdkServer stateless(Path baseDir) throws Exception {
    HttpServletStatelessServerTransport transport =
        HttpServletStatelessServerTransport.builder().messageEndpoint("/mcp").build();
    SdkServer[] self = new SdkServer[1];
    var server =
        McpServer.sync(transport)
            .serverInfo("sdk-stateless", "1")
            .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
            .tools(
                McpStatelessServerFeatures.SyncToolSpecification.builder()
                    .tool(echoTool())
                    .callHandler((context, request) -> self[0].echo(request.arguments()))
                    .build())
            .build();
    self[0] = new SdkServer(transport, server::close, Files.createTempDirectory(baseDir, "tomcat"));
    return self[0];
  }

  /** The deprecated HTTP+SSE transport: GET {@code /sse}, POST {@code /messages}. */
  public static SdkServer legacySse(Path baseDir) throws Exception {
    HttpServletSseServerTransportProvider transport =
        HttpServletSseServerTransportProvider.builder()
            .sseEndpoint("/sse")
            .messageEndpoint("/messages")
            .build();
    SdkServer[] self = new SdkServer[1];
    var server =
        McpServer.sync(transport)
            .serverInfo("sdk-legacy", "1")
            .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
            .tools(
                McpServerFeatures.SyncToolSpecification.builder()
                    .tool(echoTool())
                    .callHandler((exchange, request) -> self[0].echo(request.arguments()))
                    .build())
            .build();
    self[0] = new SdkServer(transport, server::close, Files.createTempDirectory(baseDir, "tomcat"));
    return self[0];
  }

  public String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }

  @Override
  public void close() throws Exception {
    closeServer.run();
    tomcat.stop();
    tomcat.destroy();
    // A Tomcat sets these to its directory when unset, and every later Tomcat in the JVM would
    // create
    // that directory again, after the test that owned it had deleted it.
    System.clearProperty(Globals.CATALINA_HOME_PROP);
    System.clearProperty(Globals.CATALINA_BASE_PROP);
  }
}
