package dev.toolgate.policy.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import java.util.function.UnaryOperator;

/**
 * The credential the sidecar presents to an upstream, read from files mounted into the sidecar
 * container alone: the agent never holds it, and any {@code Authorization} the agent sends there is
 * dropped. A bearer token or a header, a client certificate (over https), or a certificate and one
 * of the other two.
 */
public record UpstreamAuth(
    @JsonPropertyDescription(
            "A file holding a bearer token, sent as Authorization: Bearer <token>. In a "
                + "ToolPolicy, a key of the Secret toolgate-upstream-credentials, which the "
                + "injector mounts into the sidecar alone.")
        @Size(min = 1, max = Bounds.FILE_LENGTH)
        String bearerTokenFile,
    @JsonPropertyDescription("The name of a header to send instead of a bearer token.")
        @Size(min = 1, max = 64)
        String headerName,
    @JsonPropertyDescription(
            "A file holding that header's value (in a ToolPolicy, a key of the Secret "
                + "toolgate-upstream-credentials).")
        @Size(min = 1, max = Bounds.FILE_LENGTH)
        String headerValueFile,
    @JsonPropertyDescription(
            "A PEM file holding the client certificate (chain) the sidecar presents in the TLS "
                + "handshake; the upstream's URL must be https. Given with clientKeyFile.")
        @Size(min = 1, max = Bounds.FILE_LENGTH)
        String clientCertificateFile,
    @JsonPropertyDescription("A PEM file holding that certificate's private key (PKCS#8 or RSA).")
        @Size(min = 1, max = Bounds.FILE_LENGTH)
        String clientKeyFile,
    @JsonPropertyDescription(
            "A PEM file of the certificate authorities the upstream's server certificate must "
                + "chain to; the JVM's trusted authorities when not given.")
        @Size(min = 1, max = Bounds.FILE_LENGTH)
        String trustedCaFile) {

  /** A bearer token read from {@code file}. */
  public static UpstreamAuth bearer(String file) {
    return new UpstreamAuth(file, null, null, null, null, null);
  }

  /** Header {@code name} with its value read from {@code file}. */
  public static UpstreamAuth header(String name, String file) {
    return new UpstreamAuth(null, name, file, null, null, null);
  }

  /** A client certificate and its key, trusting the upstream through {@code caFile} (or null). */
  public static UpstreamAuth clientCertificate(String certFile, String keyFile, String caFile) {
    return new UpstreamAuth(null, null, null, certFile, keyFile, caFile);
  }

  /** Whether a header (a bearer token or a named one) is sent. */
  public boolean sendsHeader() {
    return bearerTokenFile != null || headerName != null || headerValueFile != null;
  }

  /** Whether a client certificate is presented. */
  public boolean presentsCertificate() {
    return clientCertificateFile != null || clientKeyFile != null;
  }

  /** The header this credential sets, or null when it sets none. */
  public String header() {
    return bearerTokenFile != null ? "Authorization" : headerName;
  }

  /** The file the header's value is read from, or null when it sets none. */
  public String file() {
    return bearerTokenFile != null ? bearerTokenFile : headerValueFile;
  }

  /** What goes before the file's content in the header. */
  public String prefix() {
    return bearerTokenFile != null ? "Bearer " : "";
  }

  /** The same credential with every file path passed through {@code resolve}. */
  public UpstreamAuth withFiles(UnaryOperator<String> resolve) {
    UnaryOperator<String> f = p -> p == null ? null : resolve.apply(p);
    return new UpstreamAuth(
        f.apply(bearerTokenFile),
        headerName,
        f.apply(headerValueFile),
        f.apply(clientCertificateFile),
        f.apply(clientKeyFile),
        f.apply(trustedCaFile));
  }
}
