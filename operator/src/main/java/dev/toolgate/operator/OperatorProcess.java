package dev.toolgate.operator;

import dev.toolgate.operator.health.HealthServer;
import dev.toolgate.operator.health.OperatorMetrics;
import dev.toolgate.operator.inject.AdmissionReviews;
import dev.toolgate.operator.inject.InjectionOptions;
import dev.toolgate.operator.inject.SidecarInjector;
import dev.toolgate.operator.publish.StateApiPublisher;
import dev.toolgate.operator.reconcile.ConfigPublisher;
import dev.toolgate.operator.reconcile.OperatorRuntime;
import dev.toolgate.operator.reconcile.ToolPolicyReconciler;
import dev.toolgate.operator.render.RenderOptions;
import dev.toolgate.operator.sign.ConfigSigner;
import dev.toolgate.operator.sign.SigningKeySecret;
import dev.toolgate.operator.state.StateTlsSecret;
import dev.toolgate.operator.webhook.WebhookCertificates;
import dev.toolgate.operator.webhook.WebhookRuntime;
import dev.toolgate.operator.webhook.WebhookTlsSecret;
import dev.toolgate.trust.SigningKey;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator in a cluster: the webhook (every replica serves it, with the certificates all
 * replicas share), the caBundle kept current, the probes, and the reconciler on the leader only.
 *
 * @param namespace the operator's namespace (lease, webhook Service; never injected)
 * @param identity this replica's name in the lease (the pod name)
 * @param webhookPort the HTTPS port
 * @param healthPort the plain HTTP port of /healthz and /readyz
 * @param webhookService the Service in front of the webhook
 * @param webhookConfiguration the MutatingWebhookConfiguration to keep the caBundle of
 * @param injection what to inject
 * @param render what every rendered configuration gets
 * @param signingSecret the Secret of the operator's namespace holding the configuration-signing key
 * @param stateService the state service's Service in the operator's namespace; null without one
 * @param statePort its API port
 * @param stateTokenFile the operator's projected token for the state service, to publish with
 * @param externalState a state service the user runs (its URL and CA file); null for the chart's
 */
record OperatorProcess(
    String namespace,
    String identity,
    int webhookPort,
    int healthPort,
    String webhookService,
    String webhookConfiguration,
    InjectionOptions injection,
    RenderOptions render,
    String signingSecret,
    String stateService,
    String statePort,
    String stateTokenFile,
    ExternalState externalState) {

  /** A state service run outside the chart: its HTTPS URL, and a file holding its CA (PEM). */
  record ExternalState(String url, Path caFile) {}

  private static final Logger LOG = LoggerFactory.getLogger(OperatorProcess.class);
  static final Duration LEASE = Duration.ofSeconds(15);

  /** How often a replica checks the shared certificates and the caBundle. */
  static final Duration MAINTENANCE = Duration.ofSeconds(30);

  /** On shutdown: not ready this long first (the Service stops routing here), then drain. */
  static final int NOT_READY_BEFORE_STOP_SECONDS = 5;

  static final int DRAIN_SECONDS = 10;

  void run() throws Exception {
    KubernetesClient client = new KubernetesClientBuilder().build();
    ConfigSigner signer =
        new ConfigSigner(
            SigningKeySecret.loadOrCreate(
                client,
                namespace,
                signingSecret,
                () -> SigningKey.generate(identity + "-" + Clock.systemUTC().millis())));
    RenderOptions rendering = render;
    if (externalState != null) {
      rendering =
          RenderOptions.injected(
                  externalState.url(),
                  java.nio.file.Files.readString(externalState.caFile()),
                  render.warmupCalls())
              .withPorts(render.listenPort(), render.adminPort());
    } else if (stateService != null) {
      String ca =
          StateTlsSecret.caOf(
              client,
              namespace,
              stateService + "-tls",
              StateTlsSecret.names(stateService, namespace),
              Clock.systemUTC().instant());
      rendering =
          RenderOptions.injected(
                  "https://" + stateService + "." + namespace + ".svc:" + statePort,
                  ca,
                  render.warmupCalls())
              .withPorts(render.listenPort(), render.adminPort());
    } else {
      LOG.warn(
          "no state service (TOOLGATE_STATE_SERVICE): each injected sidecar keeps its quotas and"
              + " records to itself, so limits hold per replica only");
    }
    AdmissionReviews reviews =
        new AdmissionReviews(
            new SidecarInjector(injection.withConfigKeys(signer.publicKeys().toJson())));
    String certDir = System.getenv("TOOLGATE_WEBHOOK_CERT_DIR");
    WebhookRuntime.Source certificates =
        certDir != null && !certDir.isBlank()
            ? new WebhookRuntime.Mounted(Path.of(certDir))
            : new WebhookRuntime.Shared(
                new WebhookTlsSecret(
                    client,
                    namespace,
                    webhookService + "-certs",
                    WebhookCertificates.serviceNames(webhookService, namespace)));
    OperatorMetrics metrics = OperatorMetrics.prometheus();
    WebhookRuntime webhook =
        WebhookRuntime.start(
            client,
            webhookConfiguration,
            certificates,
            Clock.systemUTC(),
            "0.0.0.0",
            webhookPort,
            reviews,
            metrics);
    ConfigPublisher publisher =
        rendering.stateApi().url() == null
            ? ConfigPublisher.NONE
            : ConfigPublisher.counted(
                StateApiPublisher.create(
                    rendering.stateApi().url(), rendering.stateApi().ca(), Path.of(stateTokenFile)),
                metrics::publicationFailed);
    OperatorRuntime runtime =
        new OperatorRuntime(
            client,
            new ToolPolicyReconciler(client, rendering, Clock.systemUTC(), signer, publisher),
            namespace,
            identity,
            LEASE,
            metrics);
    runtime.start();
    HealthServer health =
        HealthServer.start("0.0.0.0", healthPort, runtime::notLive, webhook::notReady);
    health.serve("/metrics", "text/plain; version=0.0.4", metrics::scrape);
    ScheduledExecutorService maintenance = Executors.newSingleThreadScheduledExecutor();
    maintenance.scheduleWithFixedDelay(
        webhook::maintain, MAINTENANCE.toSeconds(), MAINTENANCE.toSeconds(), TimeUnit.SECONDS);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  maintenance.shutdownNow();
                  runtime.close();
                  webhook.stop(NOT_READY_BEFORE_STOP_SECONDS, DRAIN_SECONDS);
                  health.close();
                  client.close();
                },
                "toolgate-operator-shutdown"));
    LOG.info(
        "toolgate operator {} started: webhook on :{}, lease {}/{}",
        identity,
        webhookPort,
        namespace,
        OperatorRuntime.LEASE_NAME);
    Thread.currentThread().join();
  }
}
