package dev.toolgate.operator.publish;

import dev.toolgate.operator.reconcile.ConfigPublisher;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes active configurations through the state service ({@code PUT
 * /v1/configs/<namespace>/<policy>}), as the one caller it lets publish: the operator's projected
 * token, re-read at every publication (the kubelet rotates it). A failed publication is logged: the
 * ConfigMap still carries the configuration, only later.
 */
public final class StateApiPublisher implements ConfigPublisher {

  private static final Logger LOG = LoggerFactory.getLogger(StateApiPublisher.class);
  static final String CONFIGS = "/v1/configs/";

  private final HttpClient http;
  private final URI base;
  private final Path tokenFile;

  StateApiPublisher(HttpClient http, URI base, Path tokenFile) {
    this.http = http;
    this.base = base;
    this.tokenFile = tokenFile;
  }

  /**
   * @param url the state service, https
   * @param caPem the CA its certificate is checked against
   * @param tokenFile the operator's projected token for the service's audience
   */
  public static StateApiPublisher create(String url, String caPem, Path tokenFile) {
    try {
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      int i = 0;
      for (Certificate ca :
          CertificateFactory.getInstance("X.509")
              .generateCertificates(
                  new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII)))) {
        trust.setCertificateEntry("ca-" + i++, ca);
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext ssl = SSLContext.getInstance("TLS");
      ssl.init(null, tmf.getTrustManagers(), null);
      return new StateApiPublisher(
          HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(5)).build(),
          URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url),
          tokenFile);
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException("the state service's CA: " + e.getMessage(), e);
    }
  }

  @Override
  public void publish(String key, String config) {
    send(key, "PUT", HttpRequest.BodyPublishers.ofString(config), "publish");
  }

  @Override
  public void withdraw(String key) {
    send(key, "DELETE", HttpRequest.BodyPublishers.noBody(), "withdraw");
  }

  private void send(String key, String method, HttpRequest.BodyPublisher body, String what) {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(base + CONFIGS + key))
                  .timeout(Duration.ofSeconds(10))
                  .header("Authorization", "Bearer " + Files.readString(tokenFile).strip())
                  .header("Content-Type", "application/yaml")
                  .method(method, body)
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        LOG.warn(
            "cannot {} the configuration of {}: the state service answered {} {}",
            what,
            key,
            response.statusCode(),
            response.body());
      }
    } catch (IOException e) {
      LOG.warn(
          "cannot {} the configuration of {} ({}); sidecars get it from the ConfigMap",
          what,
          key,
          e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
