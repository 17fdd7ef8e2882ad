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
}
