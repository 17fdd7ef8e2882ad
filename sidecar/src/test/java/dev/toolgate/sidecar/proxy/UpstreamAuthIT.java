package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolgate.demo.DemoBackend;
import dev.toolgate.demo.DemoBackendOptions;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.Vertx;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.SelfSignedCertificate;
import java.io.FileInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upstream with {@code auth} receives the sidecar's credential, read from a file the agent
 * cannot read, and never the agent's own {@code Authorization}; a rotated file takes effect without
 * a restart.
 */
class UpstreamAuthIT {

  private static final String API = "deployment-api";

  @TempDir Path dir;
  private final Vertx vertx = Vertx.vertx();
  private DemoBackend backend;
  private SidecarFixture f;
  private HttpServer tlsUpstream;

  @AfterEach
  void stop() throws Exception {
    if (f != null) {
      f.close();
    }
    if (backend != null) {
      backend.close().await(10, TimeUnit.SECONDS);
    }
    if (tlsUpstream != null) {
      tlsUpstream.close().await(10, TimeUnit.SECONDS);
    }
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private void start(String auth) throws Exception {
    backend = DemoBackend.start(vertx, DemoBackendOptions.ephemeral()).await(10, TimeUnit.SECONDS);
    f =
        SidecarFixture.replica(
            dir,
            backend,
            "upstreams:\n- {name: "
                + API
                + ", url: \""
                + backend.mcpUrl()
                + "\", auth: "
                + auth
                + "}\n");
  }

  private String session;

  private void callAsTheAgent() throws Exception {
    if (session == null) {
      session = f.initialize(API);
    }
    f.send(
        f.post(API, SidecarFixture.toolCall(1, "get_deployment_job", "{\"job_id\":\"j1\"}", null))
            .header("Mcp-Session-Id", session)
            .header("Authorization", "Bearer the-agents-own-token"));
  }

  @Test
  void theUpstreamGetsTheSidecarsBearerTokenNeverTheAgentsAndARotationTakesEffect()
      throws Exception {
    Path token = Files.writeString(dir.resolve("upstream.token"), "sidecar-token-1\n");
    start("{bearerTokenFile: \"upstream.token\"}");

    callAsTheAgent();

    assertThat(backend.ledger().lastHeaders("get_deployment_job"))
        .containsEntry("authorization", "Bearer sidecar-token-1");
    Files.writeString(token, "sidecar-token-2\n");
    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              callAsTheAgent();
              assertThat(backend.ledger().lastHeaders("get_deployment_job"))
                  .containsEntry("authorization", "Bearer sidecar-token-2");
            });
  }

  @Test
  void aHeaderCredentialReplacesTheAgentsAndItsAuthorizationIsDropped() throws Exception {
    Files.writeString(dir.resolve("api.key"), "key-123");
    start("{headerName: X-Api-Key, headerValueFile: \"api.key\"}");

    callAsTheAgent();

    assertThat(backend.ledger().lastHeaders("get_deployment_job"))
        .containsEntry("x-api-key", "key-123")
        .doesNotContainKey("authorization");
  }

  @Test
  void aCredentialNotMountedYetSendsNoneAndStillDropsTheAgents() throws Exception {
    start("{bearerTokenFile: \"missing.token\"}");

    callAsTheAgent();

    assertThat(backend.ledger().lastHeaders("get_deployment_job"))
        .doesNotContainKey("authorization");
  }

  /** Who called the TLS upstream: the client certificate's subject and the Authorization sent. */
  private record Caller(String subject, String authorization) {}

  /**
   * An MCP server over https on localhost that requires a client certificate signed into its trust
   * list, and records who called.
   */
  private int startTlsUpstream(
      SelfSignedCertificate server, List<Caller> callers, SelfSignedCertificate... trusted)
      throws Exception {
    PemTrustOptions trust = new PemTrustOptions();
    for (SelfSignedCertificate t : trusted) {
      trust.addCertPath(t.certificatePath());
    }
    tlsUpstream =
        vertx
            .createHttpServer(
                new HttpServerOptions()
                    .setSsl(true)
                    .setKeyCertOptions(server.keyCertOptions())
                    .setTrustOptions(trust)
                    .setClientAuth(ClientAuth.REQUIRED)
                    .setHost("localhost")
                    .setPort(0))
            .requestHandler(
                req -> req.body().onSuccess(body -> answer(req, body.toJsonObject(), callers)))
            .listen()
            .await(10, TimeUnit.SECONDS);
    return tlsUpstream.actualPort();
  }

  private static void answer(HttpServerRequest req, JsonObject msg, List<Caller> callers) {
    try {
      X509Certificate peer = (X509Certificate) req.connection().peerCertificates().get(0);
      callers.add(
          new Caller(peer.getSubjectX500Principal().getName(), req.getHeader("Authorization")));
    } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
      req.response().setStatusCode(401).end();
      return;
    }
    if (!msg.containsKey("id")) {
      req.response().setStatusCode(202).end();
      return;
    }
    JsonObject result =
        "initialize".equals(msg.getString("method"))
            ? new JsonObject()
                .put("protocolVersion", "2025-06-18")
                .put("capabilities", new JsonObject())
                .put("serverInfo", new JsonObject().put("name", "tls").put("version", "1"))
            : new JsonObject()
                .put(
                    "content",
                    new io.vertx.core.json.JsonArray()
                        .add(new JsonObject().put("type", "text").put("text", "ok")));
    req.response()
        .putHeader("Content-Type", "application/json")
        .putHeader("Mcp-Session-Id", "tls-session")
        .end(
            new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", msg.getValue("id"))
                .put("result", result)
                .encode());
  }

  private void startBehindTls(int port, SelfSignedCertificate trustedAsServer) throws Exception {
    Files.copy(Path.of(trustedAsServer.certificatePath()), dir.resolve("upstream-ca.pem"));
    f =
        SidecarFixture.start(
            dir,
            java.util.Map.of(),
            "upstreams:\n- {name: "
                + API
                + ", url: \"https://localhost:"
                + port
                + "/mcp\", auth: {clientCertificateFile: client.pem, clientKeyFile: client.key,"
                + " trustedCaFile: upstream-ca.pem}}\n");
  }

  private static void install(SelfSignedCertificate cert, Path dir) throws Exception {
    Files.copy(
        Path.of(cert.certificatePath()),
        dir.resolve("client.pem"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.copy(
        Path.of(cert.privateKeyPath()),
        dir.resolve("client.key"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  void anUpstreamRequiringAClientCertificateGetsTheSidecarsAndTheAgentCannotCallItDirectly()
      throws Exception {
    SelfSignedCertificate server = SelfSignedCertificate.create("localhost");
    SelfSignedCertificate sidecar = SelfSignedCertificate.create("toolgate-sidecar");
    List<Caller> callers = new CopyOnWriteArrayList<>();
    int port = startTlsUpstream(server, callers, sidecar);
    install(sidecar, dir);
    startBehindTls(port, server);

    callAsTheAgent();

    assertThat(callers).isNotEmpty();
    assertThat(callers)
        .allSatisfy(
            c -> {
              assertThat(c.subject()).isEqualTo("CN=toolgate-sidecar");
              assertThat(c.authorization()).isNull();
            });
    HttpClient direct = HttpClient.newBuilder().sslContext(trusting(server)).build();
    HttpRequest around =
        HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/mcp"))
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    SidecarFixture.toolCall(7, "get_deployment_job", "{}", null)))
            .build();
    int before = callers.size();
    assertThat(
            org.assertj.core.api.Assertions.catchThrowable(
                () -> direct.send(around, HttpResponse.BodyHandlers.ofString())))
        .isInstanceOf(java.io.IOException.class);
    assertThat(callers).hasSize(before);
  }

  @Test
  void aRotatedClientCertificateIsPresentedOnNewConnectionsWithoutARestart() throws Exception {
    SelfSignedCertificate server = SelfSignedCertificate.create("localhost");
    SelfSignedCertificate first = SelfSignedCertificate.create("sidecar-first");
    SelfSignedCertificate second = SelfSignedCertificate.create("sidecar-second");
    List<Caller> callers = new CopyOnWriteArrayList<>();
    int port = startTlsUpstream(server, callers, first, second);
    install(first, dir);
    startBehindTls(port, server);
    callAsTheAgent();
    assertThat(callers.get(callers.size() - 1).subject()).isEqualTo("CN=sidecar-first");

    install(second, dir);

    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              callAsTheAgent();
              assertThat(callers.get(callers.size() - 1).subject()).isEqualTo("CN=sidecar-second");
            });
  }

  @Test
  void anUpstreamWhoseCertificateTheTrustedCaFileDoesNotVouchForIsNeverSentTheCall()
      throws Exception {
    SelfSignedCertificate server = SelfSignedCertificate.create("localhost");
    SelfSignedCertificate impostorCa = SelfSignedCertificate.create("localhost");
    SelfSignedCertificate sidecar = SelfSignedCertificate.create("toolgate-sidecar");
    List<Caller> callers = new CopyOnWriteArrayList<>();
    int port = startTlsUpstream(server, callers, sidecar);
    install(sidecar, dir);
    startBehindTls(port, impostorCa);

    HttpResponse<String> answer =
        f.send(
            f.post(
                API,
                SidecarFixture.toolCall(1, "get_deployment_job", "{\"job_id\":\"j1\"}", null)));

    assertThat(answer.body()).contains("\"isError\":true").contains("upstream_unavailable");
    assertThat(callers).isEmpty();
  }

  private static SSLContext trusting(SelfSignedCertificate server) throws Exception {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    try (FileInputStream in = new FileInputStream(server.certificatePath())) {
      store.setCertificateEntry(
          "server", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, tmf.getTrustManagers(), null);
    return context;
  }
}
