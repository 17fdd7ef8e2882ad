package dev.toolgate.operator.webhook;

import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The webhook's TLS state that every operator replica shares (through one Secret): the CA that
 * signs the serving certificate, the CA staged to follow it, and the bundle of CAs the webhook
 * configuration trusts. Its rotation is a pure function of the time, so two replicas that compute
 * it agree, and it overlaps: a new CA enters the bundle long before it signs anything, and an old
 * one stays in it until it expires, so a review verifies whichever certificate a replica serves and
 * whichever bundle the API server holds, before, during and after a rotation.
 *
 * <ul>
 *   <li>The serving certificate lives {@link #SERVER_VALIDITY}; a new one is issued by the current
 *       CA when less than a third of its life is left, or when another CA issued it.
 *   <li>A CA lives {@link #CA_VALIDITY}. Past half its life a next CA is staged: it enters the
 *       bundle and signs nothing. Past two thirds, the next CA becomes the current one and the
 *       serving certificate is issued again; the old CA stays in the bundle until it expires.
 * </ul>
 *
 * @param current the CA that issues the serving certificate, with its key
 * @param next the CA staged to follow it, already trusted; empty before half the current's life
 * @param previous CAs no longer issuing, trusted until they expire
 * @param server the serving certificate, issued by {@code current}
 * @param serverKeys its key pair
 */
public record WebhookTls(
    Authority current,
    Optional<Authority> next,
    List<X509Certificate> previous,
    X509Certificate server,
    KeyPair serverKeys) {

  public static final Duration SERVER_VALIDITY = Duration.ofDays(90);
  public static final Duration CA_VALIDITY = Duration.ofDays(360);

  /** A CA certificate and its key pair. */
  public record Authority(X509Certificate certificate, KeyPair keys) {}

  public WebhookTls {
    previous = List.copyOf(previous);
  }

  /** A new CA and a serving certificate for these names. */
  public static WebhookTls create(List<String> names, Instant now) {
    Authority ca = Certificates.authority(now, CA_VALIDITY);
    KeyPair keys = Certificates.keyPair();
    return new WebhookTls(
        ca,
        Optional.empty(),
        List.of(),
        Certificates.server(ca, names, keys, now, SERVER_VALIDITY),
        keys);
  }

  /** What the state should be at {@code now}: this one when nothing is due. */
  public WebhookTls rotated(List<String> names, Instant now) {
    Authority issuing = current;
    Optional<Authority> staged = next;
    List<X509Certificate> retired = new ArrayList<>(previous);
    if (staged.isEmpty() && pastFraction(current.certificate(), now, 1, 2)) {
      staged = Optional.of(Certificates.authority(now, CA_VALIDITY));
    }
    if (staged.isPresent() && pastFraction(current.certificate(), now, 2, 3)) {
      retired.add(current.certificate());
      issuing = staged.get();
      staged = Optional.empty();
    }
    retired.removeIf(ca -> !ca.getNotAfter().toInstant().isAfter(now));
    X509Certificate serving = server;
    KeyPair keys = serverKeys;
    boolean reissue =
        issuing != current
            || pastFraction(server, now, 2, 3)
            || !server
                .getIssuerX500Principal()
                .equals(issuing.certificate().getSubjectX500Principal())
            || !Certificates.signedBy(server, issuing.certificate());
    if (reissue) {
      keys = Certificates.keyPair();
      serving = Certificates.server(issuing, names, keys, now, SERVER_VALIDITY);
    }
    WebhookTls out = new WebhookTls(issuing, staged, retired, serving, keys);
    return out.sameAs(this) ? this : out;
  }

  /** Every CA a client must trust: the current, the staged next and the retired ones. */
  public List<X509Certificate> trusted() {
    List<X509Certificate> all = new ArrayList<>();
    all.add(current.certificate());
    next.ifPresent(n -> all.add(n.certificate()));
    all.addAll(previous);
    return all;
  }

  /** The trusted CAs in PEM, one after the other: the webhook configuration's caBundle. */
  public String bundlePem() {
    StringBuilder out = new StringBuilder();
    trusted().forEach(ca -> out.append(Certificates.pem(ca)));
    return out.toString();
  }

  private boolean sameAs(WebhookTls other) {
    return current.certificate().equals(other.current.certificate())
        && next.map(Authority::certificate).equals(other.next.map(Authority::certificate))
        && previous.equals(other.previous)
        && server.equals(other.server);
  }

  /** Whether more than {@code num/den} of the certificate's life has passed at {@code now}. */
  private static boolean pastFraction(X509Certificate certificate, Instant now, int num, int den) {
    Instant from = certificate.getNotBefore().toInstant();
    Instant to = certificate.getNotAfter().toInstant();
    Duration life = Duration.between(from, to);
    return now.isAfter(from.plus(life.multipliedBy(num).dividedBy(den)));
  }
}
