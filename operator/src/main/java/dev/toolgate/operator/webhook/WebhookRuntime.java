package dev.toolgate.operator.webhook;

import dev.toolgate.operator.health.OperatorMetrics;
import dev.toolgate.operator.inject.AdmissionReviews;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica's webhook: serves the certificate of the shared {@link WebhookTlsSecret} (or the one
 * cert-manager mounts), follows its rotations without a restart, keeps the webhook configuration's
 * caBundle equal to the shared bundle, and is ready only while the caBundle the API server reads
 * trusts the certificate it serves.
 */
public final class WebhookRuntime implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WebhookRuntime.class);

  /** Where the certificates come from: the shared Secret, or files cert-manager mounts. */
  public sealed interface Source permits Shared, Mounted {}

  /** The operator's own CA, in the Secret {@code secret} every replica reads. */
  public record Shared(WebhookTlsSecret secret) implements Source {}

  /** cert-manager's Secret mounted in {@code dir}; its CA injector keeps the caBundle. */
  public record Mounted(Path dir) implements Source {}

  private final KubernetesClient client;
  private final String configuration;
  private final Source source;
  private final Clock clock;
  private final WebhookServer server;
  private volatile String notReady = "not checked yet";

  private WebhookRuntime(
      KubernetesClient client,
      String configuration,
      Source source,
      Clock clock,
      WebhookServer server) {
    this.client = client;
    this.configuration = configuration;
    this.source = source;
    this.clock = clock;
    this.server = server;
  }

  /** Starts serving on {@code host:port} with the source's certificate, then checks it once. */
  public static WebhookRuntime start(
      KubernetesClient client,
      String configuration,
      Source source,
      Clock clock,
      String host,
      int port,
      AdmissionReviews reviews,
      OperatorMetrics metrics)
      throws Exception {
    Fetched first = fetch(source, clock);
    WebhookServer server = WebhookServer.start(host, port, first.certificates(), reviews, metrics);
    metrics.certificateSecondsLeft(
        () ->
            java.time.Duration.between(
                    clock.instant(), server.serving().server().getNotAfter().toInstant())
                .toSeconds());
    WebhookRuntime runtime = new WebhookRuntime(client, configuration, source, clock, server);
    runtime.apply(first);
    return runtime;
  }

  public int port() {
    return server.port();
  }

  /**
   * Rotates the shared certificates when due, serves the current ones, publishes the bundle into
   * the webhook configuration and checks that it trusts what is served. Failures leave the replica
   * serving what it served and not ready; the next call tries again.
   */
  public void maintain() {
    try {
      apply(fetch(source, clock));
    } catch (Exception e) {
      failed(e);
    }
  }

  /** Publishes the bundle (for the shared CA), serves the certificates, checks the trust. */
  private void apply(Fetched fetched) {
    try {
      if (fetched.bundlePem() != null) {
        CaBundle.ensure(client, configuration, fetched.bundlePem());
      }
      serve(fetched.certificates());
      notReady = CaBundle.trustGap(client, configuration, server.serving().server());
    } catch (Exception e) {
      failed(e);
    }
  }

  private void failed(Exception e) {
    notReady = "webhook maintenance failed: " + e.getMessage();
    LOG.warn(notReady);
  }

  private void serve(WebhookCertificates next) {
    if (!next.server().equals(server.serving().server())) {
      server.use(next);
      LOG.info(
          "serving the webhook certificate issued by {} until {}",
          next.ca().getSubjectX500Principal().getName(),
          next.server().getNotAfter().toInstant());
    }
  }

  /** Null when ready to take reviews, else why not. */
  public String notReady() {
    return notReady;
  }

  /**
   * Becomes not ready and keeps serving for {@code notReadySeconds}, while the Service stops
   * sending reviews here; then stops accepting and answers the reviews in flight, for at most
   * {@code drainSeconds}.
   */
  public void stop(int notReadySeconds, int drainSeconds) {
    notReady = "shutting down";
    CompletableFuture.runAsync(
            () -> {}, CompletableFuture.delayedExecutor(notReadySeconds, TimeUnit.SECONDS))
        .join();
    server.stop(drainSeconds);
  }

  @Override
  public void close() {
    stop(0, 0);
  }

  /**
   * What to serve, and the bundle to publish: null for cert-manager's, whose CA injector keeps the
   * caBundle.
   */
  private record Fetched(WebhookCertificates certificates, String bundlePem) {}

  /** The shared state, rotated when due, or the files cert-manager mounts. */
  private static Fetched fetch(Source source, Clock clock) throws IOException {
    if (source instanceof Shared shared) {
      WebhookTls tls = shared.secret().ensure(clock.instant());
      return new Fetched(WebhookCertificates.of(tls), tls.bundlePem());
    }
    return new Fetched(WebhookCertificates.load(((Mounted) source).dir()), null);
  }
}
