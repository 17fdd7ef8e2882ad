package dev.toolgate.operator.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shared webhook certificates rotate on a schedule that is a function of the time alone, and
 * overlapping: whatever certificate a replica serves verifies against whatever bundle the API
 * server holds, the one before a step or the one after it.
 */
class WebhookTlsTest {

  private static final List<String> NAMES = List.of("toolgate-webhook.toolgate.svc");
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** What the API server checks: a CA of the bundle signed it, and both are valid at {@code at}. */
  private static boolean verifies(
      X509Certificate server, List<X509Certificate> bundle, Instant at) {
    return valid(server, at)
        && bundle.stream().anyMatch(ca -> valid(ca, at) && Certificates.signedBy(server, ca));
  }

  private static boolean valid(X509Certificate certificate, Instant at) {
    return !at.isBefore(certificate.getNotBefore().toInstant())
        && !at.isAfter(certificate.getNotAfter().toInstant());
  }

  @Test
  void aNewStateTrustsTheCertificateItServesAndNothingIsDueBeforeItsTime() {
    WebhookTls tls = WebhookTls.create(NAMES, T0);

    assertThat(verifies(tls.server(), tls.trusted(), T0)).isTrue();
    assertThat(tls.trusted()).containsExactly(tls.current().certificate());
    assertThat(tls.rotated(NAMES, T0.plus(Duration.ofDays(59)))).isSameAs(tls);
  }

  @Test
  void theServingCertificateIsReissuedByTheSameCaWithAThirdOfItsLifeLeft() {
    WebhookTls tls = WebhookTls.create(NAMES, T0);

    WebhookTls later = tls.rotated(NAMES, T0.plus(Duration.ofDays(61)));

    assertThat(later.server()).isNotEqualTo(tls.server());
    assertThat(later.current()).isEqualTo(tls.current());
    assertThat(later.trusted()).containsExactlyElementsOf(tls.trusted());
  }

  @Test
  void aNextCaIsTrustedLongBeforeItSignsAndTheOldOneUntilItExpires() {
    WebhookTls tls = WebhookTls.create(NAMES, T0);

    WebhookTls staged = tls.rotated(NAMES, T0.plus(Duration.ofDays(181)));
    assertThat(staged.next()).isPresent();
    assertThat(staged.trusted()).hasSize(2);
    assertThat(Certificates.signedBy(staged.server(), staged.current().certificate())).isTrue();

    WebhookTls promoted = staged.rotated(NAMES, T0.plus(Duration.ofDays(241)));
    assertThat(promoted.current().certificate())
        .isEqualTo(staged.next().orElseThrow().certificate());
    assertThat(promoted.previous()).containsExactly(tls.current().certificate());
    assertThat(Certificates.signedBy(promoted.server(), promoted.current().certificate())).isTrue();

    WebhookTls expired = promoted.rotated(NAMES, T0.plus(Duration.ofDays(361)));
    assertThat(expired.previous()).isEmpty();
  }

  @Test
  void overThreeYearsEveryServedCertificateVerifiesAgainstTheBundleBeforeAndAfterEachDay() {
    WebhookTls before = WebhookTls.create(NAMES, T0);
    int caChanges = 0;
    int serverChanges = 0;
    for (int day = 1; day <= 3 * 365; day++) {
      Instant now = T0.plus(Duration.ofDays(day));
      WebhookTls after = before.rotated(NAMES, now);

      assertThat(verifies(after.server(), after.trusted(), now)).as("day %d", day).isTrue();
      assertThat(verifies(after.server(), before.trusted(), now))
          .as("day %d: the new certificate against the bundle the API server may still hold", day)
          .isTrue();
      assertThat(verifies(before.server(), after.trusted(), now))
          .as("day %d: a replica not yet rotated against the new bundle", day)
          .isTrue();
      caChanges += after.current().equals(before.current()) ? 0 : 1;
      serverChanges += after.server().equals(before.server()) ? 0 : 1;
      before = after;
    }

    assertThat(caChanges)
        .as("at day 241, then every 180 days: a CA is staged at half the life of the one before")
        .isEqualTo(5);
    assertThat(serverChanges).isGreaterThanOrEqualTo(3 * 365 / 60);
  }
}
