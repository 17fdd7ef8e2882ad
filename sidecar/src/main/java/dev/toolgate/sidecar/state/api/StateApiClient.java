package dev.toolgate.sidecar.state.api;

import dev.toolgate.policy.config.StateApiOptions;
import dev.toolgate.sidecar.state.CredentialRefused;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemTrustOptions;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTPS to the state service, the server checked against the configured CA, each request carrying
 * this sidecar's token. The token file is re-read every {@value #TOKEN_REREAD_MS} ms and after a
 * refusal, so the kubelet's rotation is picked up without a restart. Connections are made anew
 * after an outage: nothing gives up for good.
 */
public final class StateApiClient {

  private static final Logger LOG = LoggerFactory.getLogger(StateApiClient.class);
  static final long TOKEN_REREAD_MS = 10_000;

  private final Vertx vertx;
  private final StateApiOptions options;
  private final HttpClient http;
  private final String host;
  private final int port;
  private final long timer;
  private volatile String token;

  private StateApiClient(Vertx vertx, StateApiOptions options, String token) {
    this.vertx = vertx;
    this.options = options;
    this.token = token;
    URI url = URI.create(options.url());
    this.host = url.getHost();
    this.port = url.getPort() == -1 ? 443 : url.getPort();
    this.http =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setSsl(true)
                .setVerifyHost(true)
                .setTrustOptions(
                    options.ca() != null
                        ? new PemTrustOptions().addCertValue(Buffer.buffer(options.ca()))
                        : new PemTrustOptions().addCertPath(options.caFile()))
                .setConnectTimeout(options.timeoutMs())
                .setKeepAlive(true),
            new PoolOptions().setHttp1MaxSize(4));
    this.timer = vertx.setPeriodic(TOKEN_REREAD_MS, t -> rereadToken());
  }

  /** Reads the token file once (it must exist at start: the kubelet mounts it before starting). */
  public static Future<StateApiClient> start(Vertx vertx, StateApiOptions options) {
    return vertx
        .fileSystem()
        .readFile(options.tokenFile())
        .map(
            bytes ->
                new StateApiClient(vertx, options, bytes.toString(StandardCharsets.UTF_8).strip()));
  }

  private Future<Void> rereadToken() {
    return vertx
        .fileSystem()
        .readFile(options.tokenFile())
        .onSuccess(
            bytes -> {
              String next = bytes.toString(StandardCharsets.UTF_8).strip();
              if (!next.equals(token)) {
                token = next;
                LOG.info("state service token re-read from {}", options.tokenFile());
              }
            })
        .onFailure(e -> LOG.warn("cannot re-read the state service token: {}", e.toString()))
        .mapEmpty();
  }

  /** A call; its answer's JSON, or a failure ({@link CredentialRefused} when refused). */
  public Future<JsonObject> post(String path, JsonObject body) {
    return send(HttpMethod.POST, path, Buffer.buffer(body.encode()), null)
        .compose(
            answer ->
                answer.status() == 200
                    ? Future.succeededFuture(new JsonObject(answer.body()))
                    : Future.failedFuture(problem(path, answer)));
  }

  /** A published configuration: its text and ETag, or null when unchanged since {@code etag}. */
  public Future<Answer> config(String key, String etag) {
    return send(HttpMethod.GET, StateWire.CONFIGS + key, null, etag)
        .compose(
            answer ->
                switch (answer.status()) {
                  case 200, 304, 404 -> Future.succeededFuture(answer);
                  default -> Future.failedFuture(problem(key, answer));
                });
  }

  /** A status, a body and an ETag. */
  public record Answer(int status, Buffer body, String etag) {}

  private Future<Answer> send(HttpMethod method, String path, Buffer body, String etag) {
    return once(method, path, body, etag)
        .compose(
            answer ->
                answer.status() == 401
                    // The token may have been rotated since the last read: read it and try once
                    // more.
                    ? rereadToken().compose(v -> once(method, path, body, etag))
                    : Future.succeededFuture(answer));
  }

  private Future<Answer> once(HttpMethod method, String path, Buffer body, String etag) {
    RequestOptions request =
        new RequestOptions()
            .setMethod(method)
            .setHost(host)
            .setPort(port)
            .setURI(path)
            .setTimeout(options.timeoutMs())
            .putHeader(HttpHeaders.AUTHORIZATION, "Bearer " + token);
    if (etag != null) {
      request.putHeader(HttpHeaders.IF_NONE_MATCH, etag);
    }
    if (body != null) {
      request.putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
    }
    return http.request(request)
        .compose(r -> body == null ? r.send() : r.send(body))
        .compose(
            (HttpClientResponse response) ->
                response
                    .body()
                    .map(
                        b ->
                            new Answer(
                                response.statusCode(), b, response.getHeader(HttpHeaders.ETAG))));
  }

  private static RuntimeException problem(String what, Answer answer) {
    String error;
    try {
      error = new JsonObject(answer.body()).getString("error", answer.body().toString());
    } catch (RuntimeException e) {
      error = answer.body().toString();
    }
    if (answer.status() == 401 || answer.status() == 403) {
      return new CredentialRefused(error);
    }
    return new IllegalStateException(
        "the state service answered " + answer.status() + " to " + what + ": " + error);
  }

  public Future<Void> close() {
    vertx.cancelTimer(timer);
    return http.close();
  }
}
