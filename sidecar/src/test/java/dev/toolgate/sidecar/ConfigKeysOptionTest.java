package dev.toolgate.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.sidecar.support.SidecarFixture;
import dev.toolgate.trust.ConfigSignatures;
import dev.toolgate.trust.SigningKey;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code --config-keys}, the environment's keys and {@code --allow-unsigned-config} let in.
 */
class ConfigKeysOptionTest {

  private static final SigningKey OPERATOR = SigningKey.generate("operator-7");

  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(Map<String, String> env, String... args) {
    return SidecarCommand.commandLine(
            Clock.systemUTC(), env, new PrintWriter(out, true), new PrintWriter(err, true))
        .execute(args);
  }

  private Path config(boolean signed) throws Exception {
    SidecarFixture.writeApprovalKey(dir);
    String yaml = SidecarFixture.config("http://127.0.0.1:1/mcp", Map.of(), "", 3);
    Path file = dir.resolve(signed ? "signed.yaml" : "unsigned.yaml");
    byte[] bytes = yaml.getBytes(StandardCharsets.UTF_8);
    Files.write(file, signed ? ConfigSignatures.sign(bytes, OPERATOR, 11, false) : bytes);
    return file;
  }

  private Path publicKeys() throws Exception {
    return Files.writeString(dir.resolve("keys.json"), OPERATOR.publicKeys().toJson());
  }

  @Test
  void withoutKeysOrTheUnsignedFlagTheSidecarRefusesToStartAndSaysWhatToGive() throws Exception {
    assertThat(run(Map.of(), "--config", config(true).toString(), "--check")).isEqualTo(2);
    assertThat(err.toString())
        .contains("no configuration keys: pass --config-keys FILE")
        .contains("TOOLGATE_CONFIG_KEYS")
        .contains("--allow-unsigned-config");
  }

  @Test
  void aFileSignedWithAGivenKeyChecksAsSignedFromTheOptionOrTheEnvironment() throws Exception {
    String signed = config(true).toString();

    assertThat(
            run(Map.of(), "--config", signed, "--config-keys", publicKeys().toString(), "--check"))
        .as(err.toString())
        .isZero();
    assertThat(
            run(
                Map.of(SidecarCommand.CONFIG_KEYS_ENV, OPERATOR.publicKeys().toJson()),
                "--config",
                signed,
                "--check"))
        .as(err.toString())
        .isZero();
    assertThat(out.toString()).contains("revision 3").contains("signed by key operator-7");
  }

  @Test
  void anUnsignedFileIsUntrustedWithKeysAndAcceptedOnlyWithTheUnsignedFlag() throws Exception {
    String unsigned = config(false).toString();

    assertThat(
            run(
                Map.of(),
                "--config",
                unsigned,
                "--config-keys",
                publicKeys().toString(),
                "--check"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("untrusted configuration").contains("no signature line");
    assertThat(run(Map.of(), "--config", unsigned, "--allow-unsigned-config", "--check")).isZero();
    assertThat(out.toString()).contains("unsigned (--allow-unsigned-config)");
  }

  @Test
  void aKeyFileHoldingThePrivateKeyIsRefusedSinceAPodMustHoldPublicKeysOnly() throws Exception {
    Path leaked =
        Files.writeString(
            dir.resolve("leaked.json"), "{\"keys\":[" + OPERATOR.toPrivateJson() + "]}");

    assertThat(
            run(Map.of(), "--config", config(true).toString(), "--config-keys", leaked.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--config-keys").contains("public keys only");
  }

  @Test
  void aWarmupOverrideOutsideItsRangeIsRefusedBeforeTheSidecarStarts() throws Exception {
    String file = config(false).toString();

    assertThat(run(Map.of(), "--config", file, "--allow-unsigned-config", "--warmup-calls", "-1"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--warmup-calls must be 0 to");
    assertThat(
            run(
                Map.of(),
                "--config",
                file,
                "--allow-unsigned-config",
                "--warmup-calls",
                "0",
                "--check"))
        .isZero();
  }
}
