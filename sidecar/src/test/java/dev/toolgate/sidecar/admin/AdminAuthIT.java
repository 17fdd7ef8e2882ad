package dev.toolgate.sidecar.admin;

import static dev.toolgate.sidecar.support.SidecarFixture.API;
import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdminAuthIT {

  static final String TOKEN = "admin-token-for-tests-0123456789";

  @TempDir Path dir;
  private SidecarFixture f;

  @BeforeEach
  void start() throws Exception {
    Files.writeString(dir.resolve("admin.token"), TOKEN + "\n");
    f =
        SidecarFixture.start(
            dir,
            Map.of(),
            "quotas: {perSession: {read: 1, write: 15}}\nadmin: {host: 127.0.0.1, port: 0, tokenFile: admin.token}\n");
  }

  @AfterEach
  void stop() throws Exception {
    f.close();
  }

  private HttpResponse<String> admin(String path, String body, String authorization)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(f.adminUrl(path)))
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return f.send(request);
  }

  private String read(String session) throws Exception {
    HttpResponse<String> r =
        f.send(
            f.post(
                    API,
                    SidecarFixture.toolCall(1, "get_deployment_job", "{\"job_id\":\"j\"}", null))
                .header("Mcp-Session-Id", session));
    JsonObject result = new JsonObject(r.body()).getJsonObject("result");
    return result.getBoolean("isError")
        ? result.getJsonObject("structuredContent").getJsonObject("toolgate").getString("code")
        : "ok";
  }

  @Test
  void refusesAWrongOrMissingTokenAndChangesNothing() throws Exception {
    String session = f.initialize(API);
    read(session);

    HttpResponse<String> missing =
        admin("/admin/quotas/raise", "{\"session\":\"" + session + "\",\"reads\":5}", null);
    HttpResponse<String> wrong =
        admin(
            "/admin/quotas/raise", "{\"session\":\"" + session + "\",\"reads\":5}", "Bearer nope");

    assertThat(missing.statusCode()).isEqualTo(401);
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(read(session)).isEqualTo("quota_exceeded");
  }

  @Test
  void raisesAndResetsASessionsQuotaWithTheToken() throws Exception {
    String session = f.initialize(API);
    read(session);
    assertThat(read(session)).isEqualTo("quota_exceeded");

    HttpResponse<String> raised =
        admin(
            "/admin/quotas/raise",
            "{\"session\":\"" + session + "\",\"reads\":1}",
            "Bearer " + TOKEN);
    assertThat(raised.statusCode()).isEqualTo(200);
    assertThat(read(session)).isEqualTo("ok");
    assertThat(read(session)).isEqualTo("quota_exceeded");

    HttpResponse<String> reset =
        admin("/admin/quotas/reset", "{\"session\":\"" + session + "\"}", "Bearer " + TOKEN);
    assertThat(reset.statusCode()).isEqualTo(200);
    assertThat(read(session)).isEqualTo("ok");
  }

  @Test
  void explainsABadRaise() throws Exception {
    HttpResponse<String> bad = admin("/admin/quotas/raise", "{\"reads\":1}", "Bearer " + TOKEN);

    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("'session' is required");
  }

  @Test
  void refusesOutOfRangeAndMistypedValuesNamingTheFieldAndChangesNothing() throws Exception {
    String session = f.initialize(API);
    read(session);
    String bearer = "Bearer " + TOKEN;

    HttpResponse<String> huge =
        admin(
            "/admin/quotas/raise",
            "{\"session\":\"" + session + "\",\"writes\":2147483647}",
            bearer);
    HttpResponse<String> text =
        admin("/admin/quotas/raise", "{\"session\":\"" + session + "\",\"writes\":\"10\"}", bearer);
    HttpResponse<String> negative =
        admin("/admin/quotas/raise", "{\"session\":\"" + session + "\",\"reads\":-1}", bearer);
    HttpResponse<String> fraction =
        admin("/admin/quotas/raise", "{\"session\":\"" + session + "\",\"reads\":1.5}", bearer);
    HttpResponse<String> numericSession =
        admin("/admin/quotas/raise", "{\"session\":42,\"reads\":1}", bearer);
    HttpResponse<String> longSession =
        admin(
            "/admin/quotas/raise", "{\"session\":\"" + "s".repeat(300) + "\",\"reads\":1}", bearer);
    HttpResponse<String> array = admin("/admin/quotas/raise", "[1,2]", bearer);

    assertThat(huge.statusCode()).isEqualTo(400);
    assertThat(huge.body()).contains("'writes' must be a whole number from 0 to 1000000");
    assertThat(text.statusCode()).isEqualTo(400);
    assertThat(text.body()).contains("'writes'").contains("the string");
    assertThat(negative.body()).contains("'reads' must be a whole number");
    assertThat(fraction.body()).contains("'reads' must be a whole number");
    assertThat(numericSession.statusCode()).isEqualTo(400);
    assertThat(numericSession.body()).contains("'session' is required");
    assertThat(longSession.body()).contains("'session' is at most 256 characters");
    assertThat(array.statusCode()).isEqualTo(400);
    assertThat(read(session)).as("nothing was raised").isEqualTo("quota_exceeded");
  }

  /** The status line the admin listener answers a POST whose headers are {@code headers}. */
  private String statusAfterStreaming(String headers, boolean chunked) throws Exception {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", adminPort())) {
      socket.setSoTimeout(10_000);
      java.io.OutputStream out = socket.getOutputStream();
      out.write(headers.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      out.flush();
      Thread writer =
          new Thread(
              () -> {
                byte[] chunk = new byte[8192];
                try {
                  for (int i = 0; i < 4096; i++) {
                    if (chunked) {
                      out.write("2000\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    }
                    out.write(chunk);
                    if (chunked) {
                      out.write("\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    }
                  }
                } catch (java.io.IOException closedByTheServer) {
                  // what a refused upload meets
                }
              });
      writer.setDaemon(true);
      writer.start();
      java.io.BufferedReader in =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(
                  socket.getInputStream(), java.nio.charset.StandardCharsets.US_ASCII));
      return in.readLine();
    }
  }

  private int adminPort() {
    return URI.create(f.adminUrl("/")).getPort();
  }

  @Test
  void aHugeBodyWithoutATokenIsRefusedWithoutBeingReadDeclaredOrStreamed() throws Exception {
    String declared =
        statusAfterStreaming(
            "POST /admin/quotas/raise HTTP/1.1\r\nHost: x\r\nContent-Length: 104857600\r\n\r\n",
            false);
    String streamed =
        statusAfterStreaming(
            "POST /admin/quotas/raise HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
            true);
    String streamedWithTheToken =
        statusAfterStreaming(
            "POST /admin/quotas/raise HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + TOKEN
                + "\r\nTransfer-Encoding: chunked\r\n\r\n",
            true);

    assertThat(declared).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
    assertThat(streamed).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
    assertThat(streamedWithTheToken).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
    assertThat(f.send(HttpRequest.newBuilder(URI.create(f.adminUrl("/healthz")))).statusCode())
        .as("still serving")
        .isEqualTo(200);
  }
}
