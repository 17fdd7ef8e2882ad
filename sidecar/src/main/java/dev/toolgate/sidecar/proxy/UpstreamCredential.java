package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.model.UpstreamAuth;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The credential the sidecar presents to one upstream in the agent's place, read from files mounted
 * into the sidecar alone: a header (a bearer token or a named one), a client certificate for the
 * TLS handshake, or both, and the authorities the upstream's certificate must chain to. Re-read in
 * the background ({@link #refresh}), so a rotated Secret takes effect without a restart; a rotated
 * certificate opens new connections, since the TLS options are part of the client's pool key. The
 * agent's own {@code Authorization} never reaches that upstream.
 */
final class UpstreamCredential {

  private static final Logger LOG = LoggerFactory.getLogger(UpstreamCredential.class);

  private final String upstream;
  private final UpstreamAuth auth;
  private volatile String value;
  private volatile Tls tls;

  /**
   * The TLS side as read: its files' bytes (certificate and key, then the trusted authorities, each
   * when given), and the TLS options made of them.
   */
  private record Tls(List<Buffer> files, ClientSSLOptions options) {

    static Tls of(UpstreamAuth auth, List<Buffer> files) {
      ClientSSLOptions options = new ClientSSLOptions().setHostnameVerificationAlgorithm("HTTPS");
      if (auth.presentsCertificate()) {
        options.setKeyCertOptions(
            new PemKeyCertOptions().addCertValue(files.get(0)).addKeyValue(files.get(1)));
      }
      if (auth.trustedCaFile() != null) {
        options.setTrustOptions(new PemTrustOptions().addCertValue(files.get(files.size() - 1)));
      }
      return new Tls(files, options);
    }
  }

  private UpstreamCredential(String upstream, UpstreamAuth auth, String value, Tls tls) {
    this.upstream = upstream;
    this.auth = auth;
    this.value = value;
    this.tls = tls;
  }

  /** Reads the credential's files now; a file not there yet leaves that part out until it is. */
  static UpstreamCredential read(String upstream, UpstreamAuth auth) {
    String value = null;
    if (auth.sendsHeader()) {
      try {
        value = Files.readString(Path.of(auth.file()), StandardCharsets.UTF_8).strip();
      } catch (IOException e) {
        LOG.warn(
            "upstream '{}': cannot read its credential from {} yet; its requests go without one",
            upstream,
            auth.file());
      }
    }
    Tls tls = null;
    if (usesTls(auth)) {
      try {
        List<Buffer> files = new ArrayList<>();
        for (String file : tlsFiles(auth)) {
          files.add(Buffer.buffer(Files.readAllBytes(Path.of(file))));
        }
        tls = Tls.of(auth, files);
      } catch (IOException e) {
        LOG.warn(
            "upstream '{}': cannot read its TLS files yet ({}); its connections go without"
                + " them",
            upstream,
            e.getMessage());
      }
    }
    return new UpstreamCredential(
        upstream, auth, value == null || value.isEmpty() ? null : value, tls);
  }

  private static boolean usesTls(UpstreamAuth auth) {
    return auth.presentsCertificate() || auth.trustedCaFile() != null;
  }

  private static List<String> tlsFiles(UpstreamAuth auth) {
    List<String> files = new ArrayList<>();
    if (auth.presentsCertificate()) {
      files.add(auth.clientCertificateFile());
      files.add(auth.clientKeyFile());
    }
    if (auth.trustedCaFile() != null) {
      files.add(auth.trustedCaFile());
    }
    return files;
  }

  /** Re-reads the files off the event loop; a failed read keeps the last value. */
  void refresh(Vertx vertx) {
    if (auth.sendsHeader()) {
      vertx
          .fileSystem()
          .readFile(auth.file())
          .onSuccess(
              b -> {
                String next = b.toString(StandardCharsets.UTF_8).strip();
                if (!next.isEmpty() && !next.equals(value)) {
                  value = next;
                  LOG.info("upstream '{}': credential re-read from {}", upstream, auth.file());
                }
              });
    }
    if (usesTls(auth)) {
      List<Future<Buffer>> reads =
          tlsFiles(auth).stream().map(f -> vertx.fileSystem().readFile(f)).toList();
      Future.all(reads)
          .onSuccess(
              all -> {
                List<Buffer> files = reads.stream().map(Future::result).toList();
                Tls current = tls;
                if (current == null || !Objects.equals(current.files(), files)) {
                  tls = Tls.of(auth, files);
                  LOG.info("upstream '{}': TLS files re-read", upstream);
                }
              });
    }
  }

  /** Sets the sidecar's credential on a request's headers, and drops whatever the agent sent. */
  void apply(MultiMap headers) {
    headers.remove(HttpHeaders.AUTHORIZATION);
    if (!auth.sendsHeader()) {
      return;
    }
    headers.remove(auth.header());
    String current = value;
    if (current != null) {
      headers.set(auth.header(), auth.prefix() + current);
    }
  }

  /**
   * The TLS options presenting the client certificate and trusting the given authorities, or null
   * when the upstream uses neither (or their files are not there yet).
   */
  ClientSSLOptions tls() {
    Tls current = tls;
    return current == null ? null : current.options();
  }
}
