package dev.toolgate.operator.webhook;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A key manager whose certificate can be replaced while the server runs: each new TLS handshake
 * takes the certificate in place at that moment, so a rotation needs no restart and drops no
 * connection.
 */
final class SwappableKeyManager extends X509ExtendedKeyManager {

  private record Material(
      long generation, WebhookCertificates certificates, X509ExtendedKeyManager keys) {}

  /** The material in place and the one before it, for handshakes that began under it. */
  private record Both(Material current, Material previous) {}

  private final AtomicReference<Both> material = new AtomicReference<>();

  SwappableKeyManager(WebhookCertificates certificates) {
    use(certificates);
  }

  void use(WebhookCertificates certificates) {
    material.updateAndGet(
        both -> {
          long generation = both == null ? 0 : both.current().generation() + 1;
          Material next = new Material(generation, certificates, keyManager(certificates));
          return new Both(next, both == null ? next : both.current());
        });
  }

  WebhookCertificates current() {
    return material.get().current().certificates();
  }

  private static X509ExtendedKeyManager keyManager(WebhookCertificates certificates) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      char[] password = new char[0];
      store.setKeyEntry(
          "webhook",
          certificates.serverKeys().getPrivate(),
          password,
          new Certificate[] {certificates.server(), certificates.ca()});
      KeyManagerFactory factory =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      factory.init(store, password);
      for (KeyManager manager : factory.getKeyManagers()) {
        if (manager instanceof X509ExtendedKeyManager x509) {
          return x509;
        }
      }
      throw new IllegalStateException("the JRE offers no X.509 key manager");
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("cannot use the webhook certificate: " + e.getMessage(), e);
    }
  }

  /** An alias names the generation it was chosen from, so the chain and key match it. */
  private String tagged(Material m, String alias) {
    return alias == null ? null : m.generation() + ":" + alias;
  }

  private Material of(String tagged) {
    Both both = material.get();
    long generation = Long.parseLong(tagged.substring(0, tagged.indexOf(':')));
    return both.current().generation() == generation ? both.current() : both.previous();
  }

  private static String alias(String tagged) {
    return tagged.substring(tagged.indexOf(':') + 1);
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return null;
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return null;
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    Material m = material.get().current();
    String[] aliases = m.keys().getServerAliases(keyType, issuers);
    if (aliases == null) {
      return null;
    }
    return java.util.Arrays.stream(aliases).map(a -> tagged(m, a)).toArray(String[]::new);
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    Material m = material.get().current();
    return tagged(m, m.keys().chooseServerAlias(keyType, issuers, socket));
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    Material m = material.get().current();
    return tagged(m, m.keys().chooseEngineServerAlias(keyType, issuers, engine));
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return alias == null ? null : of(alias).keys().getCertificateChain(alias(alias));
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return alias == null ? null : of(alias).keys().getPrivateKey(alias(alias));
  }
}
