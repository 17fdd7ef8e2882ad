package dev.toolgate.operator;

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
import dev.toolgate.operator.webhook.CaBundle;
import dev.toolgate.operator.webhook.WebhookCertificates;
import dev.toolgate.operator.webhook.WebhookServer;
import dev.toolgate.trust.SigningKey;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator in a cluster: the webhook (every replica serves it), the caBundle kept current, the
 * certificate rotated, and the reconciler on the leader only.
 *
 * @param namespace the operator's namespace (lease, webhook Service; never injected)
 * @param identity this replica's name in the lease (the pod name)
 * @param webhookPort the HTTPS port
 * @param webhookService the Service in front of the webhook
 * @param webhookConfiguration the MutatingWebhookConfiguration to keep the caBundle of
 * @param injection what to inject
 * @param render what every rendered configuration gets
 * @param signingSecret the Secret of the operator's namespace holding the configuration-signing key
 * @param stateService the state service's Service in the operator's namespace; null without one
 * @param statePort its API port
 * @param stateTokenFile the operator's projected token for the state service, to publish with
 */
record OperatorProcess(
    String namespace,
    String identity,
    int webhookPort,
    String webhookService,
    String webhookConfiguration,
    InjectionOptions injection,
    RenderOptions render,
    String signingSecret,
    String stateService,
    String statePort,
    String stateTokenFile) {

  private static final Logger LOG = LoggerFactory.getLogger(OperatorProcess.class);
  static final Duration LEASE = Duration.ofSeconds(15);

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
    if (stateService != null) {
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
              render.warmupCalls());
    } else {
      LOG.warn(
          "no state service (TOOLGATE_STATE_SERVICE): each injected sidecar keeps its quotas and"
              + " records to itself, so limits hold per replica only");
    }
    List<String> names = WebhookCertificates.serviceNames(webhookService, namespace);
    AdmissionReviews reviews =
        new AdmissionReviews(
            new SidecarInjector(injection.withConfigKeys(signer.publicKeys().toJson())));
    String certDir = System.getenv("TOOLGATE_WEBHOOK_CERT_DIR");
    boolean certManager = certDir != null && !certDir.isBlank();
    WebhookCertificates[] certs = {
      certManager
          ? WebhookCertificates.load(java.nio.file.Path.of(certDir))
          : WebhookCertificates.generate(names, Clock.systemUTC().instant())
    };
    WebhookServer[] server = {WebhookServer.start("0.0.0.0", webhookPort, certs[0], reviews)};
    if (!certManager) {
      CaBundle.ensure(client, webhookConfiguration, certs[0].caPem());
    }
    ConfigPublisher publisher =
        rendering.stateApi().url() == null
            ? ConfigPublisher.NONE
            : StateApiPublisher.create(
                rendering.stateApi().url(), rendering.stateApi().ca(), Path.of(stateTokenFile));
    OperatorRuntime runtime =
        new OperatorRuntime(
            client,
            new ToolPolicyReconciler(client, rendering, Clock.systemUTC(), signer, publisher),
            namespace,
            identity,
            LEASE);
    runtime.start();
    ScheduledExecutorService maintenance = Executors.newSingleThreadScheduledExecutor();
    maintenance.scheduleAtFixedRate(
        () -> {
          try {
            if (certManager) {
              // cert-manager renews the Secret and its cainjector the caBundle: follow the mounted
              // files.
              WebhookCertificates mounted =
                  WebhookCertificates.load(java.nio.file.Path.of(certDir));
              if (!mounted.server().equals(certs[0].server())) {
                certs[0] = mounted;
                server[0].close();
                server[0] = WebhookServer.start("0.0.0.0", webhookPort, certs[0], reviews);
                LOG.info("loaded the certificate cert-manager renewed");
              }
            } else if (certs[0].needsRotation(Clock.systemUTC().instant())) {
              certs[0] = WebhookCertificates.generate(names, Clock.systemUTC().instant());
              CaBundle.ensure(client, webhookConfiguration, certs[0].caPem());
              server[0].close();
              server[0] = WebhookServer.start("0.0.0.0", webhookPort, certs[0], reviews);
              LOG.info("rotated the webhook certificate");
            } else {
              CaBundle.ensure(client, webhookConfiguration, certs[0].caPem());
            }
          } catch (Exception e) {
            LOG.warn("webhook maintenance failed: {}", e.getMessage());
          }
        },
        1,
        10,
        TimeUnit.MINUTES);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  maintenance.shutdownNow();
                  runtime.close();
                  server[0].close();
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
