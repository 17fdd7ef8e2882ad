package dev.toolgate.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class ConfigSignaturesTest {

  private static final SigningKey KEY = SigningKey.generate("operator-1");
  private static final byte[] DOCUMENT =
      "revision: 7\nkillSwitch: {blockWrites: false}\n".getBytes(StandardCharsets.UTF_8);

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static SignatureRefused.Reason refusal(TrustedKeys keys, byte[] signed) {
    try {
      keys.verify(signed);
    } catch (SignatureRefused e) {
      return e.reason();
    }
    throw new AssertionError("the document was accepted");
  }

  @Test
  void aSignedDocumentIsTheYamlUnchangedWithOneCommentLineAfterIt() {
    String signed = text(ConfigSignatures.sign(DOCUMENT, KEY, 42, false));

    assertThat(signed).startsWith(text(DOCUMENT));
    assertThat(signed.substring(DOCUMENT.length).lines().toList())
        .singleElement()
        .asString()
        .startsWith(ConfigSignatures.PREFIX);
  }

  @Test
  void theKeysPublicHalfVerifiesItAndReadsTheSequenceTheRollbackAndTheKeyId() throws Exception {
    SignedConfig verified = KEY.publicKeys().verify(ConfigSignatures.sign(DOCUMENT, KEY, 42, true));

    assertThat(verified.document()).isEqualTo(DOCUMENT);
    assertThat(verified.keyId()).isEqualTo("operator-1");
    assertThat(verified.sequence()).isEqualTo(42);
    assertThat(verified.rollback()).isTrue();
  }

  @Test
  void aDocumentChangedAfterSigningIsRefusedAsABadSignature() {
    String signed = text(ConfigSignatures.sign(DOCUMENT, KEY, 1, false));
    byte[] edited =
        signed.replace("blockWrites: false", "blockWrites: true ").getBytes(StandardCharsets.UTF_8);

    assertThat(refusal(KEY.publicKeys(), edited)).isEqualTo(SignatureRefused.Reason.BAD_SIGNATURE);
  }

  @Test
  void aSignatureHeaderTurnedIntoARollbackIsRefusedAsABadSignature() {
    String signed = text(ConfigSignatures.sign(DOCUMENT, KEY, 1, false));
    String jws = signed.substring(signed.indexOf(ConfigSignatures.PREFIX) + 22).trim();
    String header = new String(Base64.getUrlDecoder().decode(jws.split("\\.")[0]));
    String forged =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(header.replace("false", "true").getBytes(StandardCharsets.UTF_8));
    byte[] tampered = signed.replace(jws.split("\\.")[0], forged).getBytes(StandardCharsets.UTF_8);

    assertThat(header).contains("\"rollback\":false");
    assertThat(refusal(KEY.publicKeys(), tampered))
        .isEqualTo(SignatureRefused.Reason.BAD_SIGNATURE);
  }

  @Test
  void aDocumentWithoutASignatureLineIsRefusedAsUnsigned() {
    assertThat(refusal(KEY.publicKeys(), DOCUMENT)).isEqualTo(SignatureRefused.Reason.UNSIGNED);
  }

  @Test
  void aDocumentSignedWithAKeyTheSidecarWasNotGivenIsRefusedAsAnUnknownKey() {
    SigningKey stranger = SigningKey.generate("attacker");

    assertThat(refusal(KEY.publicKeys(), ConfigSignatures.sign(DOCUMENT, stranger, 9, false)))
        .isEqualTo(SignatureRefused.Reason.UNKNOWN_KEY);
  }

  @Test
  void aForgerWhoReusesTheOperatorsKeyIdFailsTheSignatureCheck() {
    SigningKey impostor = SigningKey.generate("operator-1");

    assertThat(refusal(KEY.publicKeys(), ConfigSignatures.sign(DOCUMENT, impostor, 9, false)))
        .isEqualTo(SignatureRefused.Reason.BAD_SIGNATURE);
  }

  @Test
  void aSignatureLineThatIsNotAJwsIsRefusedAsMalformed() {
    byte[] garbage =
        (text(DOCUMENT) + ConfigSignatures.PREFIX + "not-a-jws\n").getBytes(StandardCharsets.UTF_8);

    assertThat(refusal(KEY.publicKeys(), garbage)).isEqualTo(SignatureRefused.Reason.MALFORMED);
  }

  @Test
  void aKeySetWithTheOldAndTheNewKeyVerifiesBothDuringARotation() throws Exception {
    SigningKey next = SigningKey.generate("operator-2");
    TrustedKeys both = TrustedKeys.parse(KEY.publicKeys().and(next.publicKeys()).toJson());

    assertThat(both.keyIds()).containsExactly("operator-1", "operator-2");
    assertThat(both.verify(ConfigSignatures.sign(DOCUMENT, KEY, 1, false)).keyId())
        .isEqualTo("operator-1");
    assertThat(both.verify(ConfigSignatures.sign(DOCUMENT, next, 2, false)).keyId())
        .isEqualTo("operator-2");
  }

  @Test
  void aKeySetHoldingAPrivateKeyIsRefusedSinceSidecarsHoldPublicKeysOnly() {
    String privateSet = "{\"keys\":[" + KEY.toPrivateJson() + "]}";

    assertThatThrownBy(() -> TrustedKeys.parse(privateSet))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("operator-1")
        .hasMessageContaining("public keys only");
  }

  @Test
  void aPrivateKeyRoundTripsThroughItsJwkAndKeepsSigning() throws Exception {
    SigningKey again = SigningKey.parse(KEY.toPrivateJson());

    assertThat(again.keyId()).isEqualTo("operator-1");
    assertThat(KEY.publicKeys().verify(ConfigSignatures.sign(DOCUMENT, again, 3, false)).sequence())
        .isEqualTo(3);
  }

  @Test
  void aPublicKeyOrAKeyWithoutIdIsNotASigningKey() {
    String publicOnly = KEY.publicKeys().toJson();
    String oneKey = publicOnly.substring(publicOnly.indexOf('[') + 1, publicOnly.lastIndexOf(']'));

    assertThatThrownBy(() -> SigningKey.parse(oneKey)).hasMessageContaining("no private part");
    assertThatThrownBy(() -> SigningKey.generate(" ")).hasMessageContaining("key id");
    assertThatThrownBy(() -> SigningKey.parse("{}")).hasMessageContaining("not a JWK");
  }
}
