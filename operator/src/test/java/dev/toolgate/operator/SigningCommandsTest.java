package dev.toolgate.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.trust.SignedConfig;
import dev.toolgate.trust.TrustedKeys;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** keygen, sign and render --signing-key, as a user signs a configuration off a cluster. */
class SigningCommandsTest {

  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    out.reset();
    err.reset();
    return Main.run(args, new PrintStream(out), new PrintStream(err));
  }

  private SignedConfig verifiedOutput() throws Exception {
    TrustedKeys keys = TrustedKeys.parse(Files.readString(dir.resolve("public.json")));
    return keys.verify(out.toByteArray());
  }

  private void keygen() {
    assertThat(
            run(
                "keygen",
                "--key-id",
                "laptop",
                "--private",
                dir.resolve("private.jwk").toString(),
                "--public",
                dir.resolve("public.json").toString()))
        .as(err.toString())
        .isZero();
  }

  @Test
  void keygenWritesAPrivateKeyOnlyItsOwnerReadsAndRefusesToOverwriteIt() throws Exception {
    keygen();

    assertThat(Files.getPosixFilePermissions(dir.resolve("private.jwk")))
        .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    assertThat(Files.readString(dir.resolve("public.json")))
        .contains("\"kid\":\"laptop\"")
        .doesNotContain("\"d\"");
    String before = Files.readString(dir.resolve("private.jwk"));
    assertThat(
            run(
                "keygen",
                "--private",
                dir.resolve("private.jwk").toString(),
                "--public",
                dir.resolve("other.json").toString()))
        .isEqualTo(2);
    assertThat(Files.readString(dir.resolve("private.jwk"))).isEqualTo(before);
  }

  @Test
  void signOutputsTheConfigurationWithASignatureTheSidecarsKeysVerify() throws Exception {
    keygen();
    Path config = Files.writeString(dir.resolve("sidecar.yaml"), "revision: 4\nmode: enforce\n");

    assertThat(
            run(
                "sign",
                "--signing-key",
                dir.resolve("private.jwk").toString(),
                "--sequence",
                "77",
                "--rollback",
                config.toString()))
        .as(err.toString())
        .isZero();

    SignedConfig signed = verifiedOutput();
    assertThat(new String(signed.document(), StandardCharsets.UTF_8))
        .isEqualTo("revision: 4\nmode: enforce\n");
    assertThat(signed.keyId()).isEqualTo("laptop");
    assertThat(signed.sequence()).isEqualTo(77);
    assertThat(signed.rollback()).isTrue();
  }

  @Test
  void signRefusesAPublicKeyAsTheSigningKeyNamingTheFile() throws Exception {
    keygen();
    Path config = Files.writeString(dir.resolve("sidecar.yaml"), "revision: 4\n");

    assertThat(
            run("sign", "--signing-key", dir.resolve("public.json").toString(), config.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--signing-key").contains("public.json");
  }

  @Test
  void renderWithASigningKeyOutputsASignedConfiguration() throws Exception {
    keygen();

    assertThat(
            run(
                "render",
                "-f",
                "../e2e/demo/toolpolicy.yaml",
                "--signing-key",
                dir.resolve("private.jwk").toString()))
        .as(err.toString())
        .isZero();

    assertThat(verifiedOutput().rollback()).isFalse();
    assertThat(out.toString()).contains("revision: 1");
  }
}
