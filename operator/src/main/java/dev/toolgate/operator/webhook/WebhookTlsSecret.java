package dev.toolgate.operator.webhook;

import dev.toolgate.operator.secret.SharedSecrets;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one Secret in the operator's namespace that holds the webhook's {@link WebhookTls}, so that
 * every replica serves a certificate of the same CAs. Any replica may create or rotate it; the API
 * server's optimistic concurrency (create conflicts, updates carry the resourceVersion read) lets
 * one write win, and the others read what won. Since the rotation is a function of the time, they
 * would have written the same decision.
 */
public final class WebhookTlsSecret {

  static final String CA = "ca.crt";
  static final String CA_KEY = "ca.key";
  static final String NEXT = "next-ca.crt";
  static final String NEXT_KEY = "next-ca.key";
  static final String SERVER = "tls.crt";
  static final String SERVER_KEY = "tls.key";
  static final String BUNDLE = "bundle.crt";

  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private final List<String> names;

  /**
   * @param name the Secret's name
   * @param names the DNS names the serving certificate carries
   */
  public WebhookTlsSecret(
      KubernetesClient client, String namespace, String name, List<String> names) {
    this.client = client;
    this.namespace = namespace;
    this.name = name;
    this.names = List.copyOf(names);
  }

  /**
   * The shared state at {@code now}: created when there is none, rotated when due, and otherwise as
   * stored. A write another replica won is read back.
   */
  public WebhookTls ensure(Instant now) throws IOException {
    Secret stored = SharedSecrets.get(client, namespace, name);
    if (stored == null) {
      WebhookTls fresh = WebhookTls.create(names, now);
      return read(
          SharedSecrets.createOrRead(
              client, SharedSecrets.of(namespace, name, "Opaque", data(fresh))));
    }
    WebhookTls current = read(stored);
    WebhookTls due = current.rotated(names, now);
    if (due == current) {
      return current;
    }
    return read(
        SharedSecrets.updateOrRead(client, new SecretBuilder(stored).withData(data(due)).build()));
  }

  static Map<String, String> data(WebhookTls tls) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put(CA, base64(Certificates.pem(tls.current().certificate())));
    data.put(CA_KEY, base64(Certificates.pem(tls.current().keys().getPrivate())));
    tls.next()
        .ifPresent(
            next -> {
              data.put(NEXT, base64(Certificates.pem(next.certificate())));
              data.put(NEXT_KEY, base64(Certificates.pem(next.keys().getPrivate())));
            });
    data.put(SERVER, base64(Certificates.pem(tls.server())));
    data.put(SERVER_KEY, base64(Certificates.pem(tls.serverKeys().getPrivate())));
    data.put(BUNDLE, base64(tls.bundlePem()));
    return data;
  }

  static WebhookTls read(Secret secret) throws IOException {
    Map<String, String> data = secret.getData() == null ? Map.of() : secret.getData();
    for (String key : List.of(CA, CA_KEY, SERVER, SERVER_KEY, BUNDLE)) {
      if (!data.containsKey(key)) {
        throw new IOException(
            "Secret " + secret.getMetadata().getName() + " has no " + key + "; delete it to renew");
      }
    }
    WebhookTls.Authority current = authority(data, CA, CA_KEY);
    Optional<WebhookTls.Authority> next =
        data.containsKey(NEXT) ? Optional.of(authority(data, NEXT, NEXT_KEY)) : Optional.empty();
    X509Certificate server = Certificates.certificates(text(data, SERVER)).get(0);
    List<X509Certificate> previous = new ArrayList<>(Certificates.certificates(text(data, BUNDLE)));
    previous.remove(current.certificate());
    next.ifPresent(n -> previous.remove(n.certificate()));
    return new WebhookTls(
        current, next, previous, server, Certificates.keyPair(text(data, SERVER_KEY), server));
  }

  private static WebhookTls.Authority authority(Map<String, String> data, String cert, String key)
      throws IOException {
    X509Certificate certificate = Certificates.certificates(text(data, cert)).get(0);
    return new WebhookTls.Authority(
        certificate, Certificates.keyPair(text(data, key), certificate));
  }

  private static String text(Map<String, String> data, String key) {
    return new String(Base64.getDecoder().decode(data.get(key)), StandardCharsets.US_ASCII);
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }
}
