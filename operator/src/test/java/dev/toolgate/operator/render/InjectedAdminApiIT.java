package dev.toolgate.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.operator.crd.ToolPolicy;
import dev.toolgate.operator.inject.InjectionOptions;
import dev.toolgate.operator.sign.ConfigSigner;
import dev.toolgate.operator.sign.Publication;
import dev.toolgate.sidecar.Sidecar;
import dev.toolgate.sidecar.SidecarOptions;
import dev.toolgate.sidecar.config.ConfigTrust;
import dev.toolgate.sidecar.evidence.EventSink;
import dev.toolgate.trust.SigningKey;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 002 in a cluster: the configuration the operator renders for an injected sidecar names the
 * admin token and the notification key where the injector mounts them, and an administrator raises
 * a session's quota through that sidecar's admin API with the mounted token, and only with it.
 */
class InjectedAdminApiIT {

  @TempDir Path dir;
  private final Vertx vertx = Vertx.vertx();
  private Sidecar sidecar;

  @AfterEach
  void stop() throws Exception {
    if (sidecar != null) {
      sidecar.close().await(10, TimeUnit.SECONDS);
    }
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  void anAdministratorRaisesAQuotaThroughAnInjectedSidecarWithTheMountedTokenOnly()
      throws Exception {
    ToolPolicy policy =
        SidecarConfigRenderer.parse(
            Files.readString(RenderedConfigBindsInTheSidecarTest.TOOL_POLICY)
                .replace(
                    "quotas: {",
                    "quotas: {notify: {webhookUrl: \"https://hooks.example/toolgate\"}, ")
                .replace(
                    "url: \"http://deployment-mcp.ops.svc:8080/mcp\"",
                    "url: \"http://deployment-mcp.ops.svc:8080/mcp\","
                        + " auth: {bearerTokenFile: deployment-api.token}"));
    String rendered = SidecarConfigRenderer.render(policy, RenderOptions.injectedWithoutState(0));
    assertThat(rendered)
        .contains("tokenFile: \"" + RenderOptions.INJECTED_ADMIN_TOKEN_FILE + "\"")
        .contains("secretFile: \"" + RenderOptions.INJECTED_NOTIFY_SECRET_FILE + "\"")
        .contains(
            "bearerTokenFile: \"" + InjectionOptions.UPSTREAMS_DIR + "/deployment-api.token\"");

    // What the kubelet does: the Secrets' files at the mount paths (here under a directory).
    Path mounts = dir.resolve("mounts");
    Path token = mounts.resolve(InjectionOptions.ADMIN_DIR.substring(1)).resolve("token");
    Files.createDirectories(token.getParent());
    Files.writeString(token, "admin-token-0123456789abcdef\n");
    Path keys = mounts.resolve("etc/toolgate/approval/keys.json");
    Files.createDirectories(keys.getParent());
    Files.writeString(keys, SigningKey.generate("approver").publicKeys().toJson());
    String local =
        rendered
            .replace("\"/etc/toolgate/", "\"" + mounts.resolve("etc/toolgate") + "/")
            .replace("port: 17000", "port: 0")
            .replace("port: 17020", "port: 0")
            .replace("host: \"0.0.0.0\"", "host: \"127.0.0.1\"");
    ConfigSigner signer = new ConfigSigner(SigningKey.generate("operator"));
    Path config = dir.resolve("sidecar.yaml");
    Files.writeString(config, signer.sign(local, new Publication(1, false)));
    sidecar =
        Sidecar.start(
                vertx,
                new SidecarOptions(
                    config,
                    ConfigTrust.signedBy(signer.publicKeys()),
                    EventSink.jsonLines(new ByteArrayOutputStream()),
                    Clock.systemUTC()))
            .await(20, TimeUnit.SECONDS);

    HttpResponse<String> withoutToken = raise(null);
    HttpResponse<String> withAgentGuess = raise("Bearer guessed-by-the-agent-000");
    HttpResponse<String> raised = raise("Bearer admin-token-0123456789abcdef");

    assertThat(withoutToken.statusCode()).isEqualTo(401);
    assertThat(withAgentGuess.statusCode()).isEqualTo(401);
    assertThat(raised.statusCode()).as(raised.body()).isEqualTo(200);
    assertThat(new JsonObject(raised.body()).getInteger("extraWrites")).isEqualTo(5);
  }

  private HttpResponse<String> raise(String authorization) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + sidecar.adminPort() + "/admin/quotas/raise"))
            .POST(HttpRequest.BodyPublishers.ofString("{\"session\":\"s1\",\"writes\":5}"));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
