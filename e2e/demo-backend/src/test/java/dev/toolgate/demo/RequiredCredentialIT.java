package dev.toolgate.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A backend started with a required bearer token lets in only the caller holding it, on every MCP
 * request; its control API (faults, ledger) stays open to the test that drives it.
 */
class RequiredCredentialIT {

  private static final String TOKEN = "only-the-sidecar-holds-this";

  private final Vertx vertx = Vertx.vertx();
  private final HttpClient client = HttpClient.newHttpClient();
  private DemoBackend backend;

  @BeforeEach
  void start() throws Exception {
    backend =
        DemoBackend.start(vertx, new DemoBackendOptions("127.0.0.1", 0, TOKEN))
            .await(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private HttpResponse<String> initialize(String authorization) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(backend.mcpUrl()))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                        + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void refusesACallerWithoutTheTokenOrWithAnotherAndServesTheOneHoldingIt() throws Exception {
    assertThat(initialize(null).statusCode()).isEqualTo(401);
    assertThat(initialize(null).headers().firstValue("WWW-Authenticate"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
    assertThat(initialize("Bearer someone-elses").statusCode()).isEqualTo(401);
    assertThat(initialize(TOKEN).statusCode()).as("the token without its scheme").isEqualTo(401);
    assertThat(initialize("Bearer " + TOKEN).statusCode()).isEqualTo(200);
  }

  @Test
  void theControlApiStaysOpen() throws Exception {
    HttpResponse<String> ledger =
        client.send(
            HttpRequest.newBuilder(URI.create(backend.mcpUrl().replace("/mcp", "/ledger"))).build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(ledger.statusCode()).isEqualTo(200);
  }
}
