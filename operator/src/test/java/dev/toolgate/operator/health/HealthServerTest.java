package dev.toolgate.operator.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HealthServerTest {

  private final AtomicReference<String> notReady = new AtomicReference<>("starting");
  private HealthServer server;

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> send(String method, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void readinessFollowsItsCheckAndSaysWhyItFails() throws Exception {
    server = HealthServer.start("127.0.0.1", 0, () -> null, notReady::get);

    HttpResponse<String> starting = send("GET", "/readyz");
    notReady.set(null);
    HttpResponse<String> ready = send("GET", "/readyz");

    assertThat(starting.statusCode()).isEqualTo(503);
    assertThat(starting.body()).isEqualTo("starting\n");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(send("GET", "/healthz").statusCode()).isEqualTo(200);
  }

  @Test
  void probesAndMetricsAreReadOnly() throws Exception {
    server = HealthServer.start("127.0.0.1", 0, () -> "the lease was lost", notReady::get);
    server.serve("/metrics", "text/plain", () -> "x 1\n");

    assertThat(send("GET", "/healthz").statusCode()).isEqualTo(503);
    assertThat(send("POST", "/healthz").statusCode()).isEqualTo(405);
    assertThat(send("DELETE", "/metrics").statusCode()).isEqualTo(405);
    assertThat(send("GET", "/metrics").body()).isEqualTo("x 1\n");
  }
}
