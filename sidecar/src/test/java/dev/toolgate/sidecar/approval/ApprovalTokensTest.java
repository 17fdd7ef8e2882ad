package dev.toolgate.sidecar.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolgate.policy.approval.ApprovalClaims;
import dev.toolgate.policy.idempotency.IdempotencyKeys;
import dev.toolgate.sidecar.Main;
import dev.toolgate.trust.SigningKey;
import dev.toolgate.trust.TrustedKeys;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApprovalTokensTest {

  private static final SigningKey ALICE = SigningKey.generate("alice-2026");
  private static final SigningKey BOB = SigningKey.generate("bob-2026");
  private static final ApprovalClaims CLAIMS =
      new ApprovalClaims("ap-1", "restart_deployment_job", "h1", "alice", 100, 1000);

  @TempDir Path dir;

  private static ApprovalTokens sidecar(SigningKey... approvers) {
    TrustedKeys keys = approvers[0].publicKeys();
    for (int i = 1; i < approvers.length; i++) {
      keys = keys.and(approvers[i].publicKeys());
    }
    return ApprovalTokens.trusting(keys);
  }

  @Test
  void aSidecarHoldingPublicKeysOnlyVerifiesWhatEachApproverSigned() throws Exception {
    ApprovalTokens sidecar = sidecar(ALICE, BOB);

    assertThat(sidecar.verify(ApprovalTokens.mint(CLAIMS, ALICE))).isEqualTo(CLAIMS);
    assertThat(sidecar.verify(ApprovalTokens.mint(CLAIMS, BOB))).isEqualTo(CLAIMS);
  }

  @Test
  void refusesATokenSignedWithAKeyTheSidecarWasNotGiven() {
    String forged = ApprovalTokens.mint(CLAIMS, SigningKey.generate("mallory"));
    String sameIdOtherKey = ApprovalTokens.mint(CLAIMS, SigningKey.generate("alice-2026"));

    assertThatThrownBy(() -> sidecar(ALICE).verify(forged))
        .isInstanceOf(InvalidApprovalException.class)
        .hasMessageContaining("signed with key id mallory, not one of [alice-2026]");
    assertThatThrownBy(() -> sidecar(ALICE).verify(sameIdOtherKey))
        .hasMessageContaining("does not match the token");
  }

  @Test
  void refusesATokenWhoseClaimsWereEdited() {
    String token = ApprovalTokens.mint(CLAIMS, ALICE);
    String[] parts = token.split("\\.");
    String payload =
        new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
            .replace("restart_deployment_job", "delete_everything");
    String edited =
        parts[0]
            + "."
            + Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(payload.getBytes(StandardCharsets.UTF_8))
            + "."
            + parts[2];

    assertThatThrownBy(() -> sidecar(ALICE).verify(edited))
        .hasMessageContaining("does not match the token");
  }

  @Test
  void refusesMalformedTokensAndUnsignedOnes() {
    String unsigned =
        Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}".getBytes())
            + "."
            + ApprovalTokens.mint(CLAIMS, ALICE).split("\\.")[1]
            + ".";

    assertThatThrownBy(() -> sidecar(ALICE).verify("not-a-token"))
        .hasMessageContaining("not a signed JWT");
    assertThatThrownBy(() -> sidecar(ALICE).verify(unsigned))
        .isInstanceOf(InvalidApprovalException.class);
  }

  @Test
  void anApprovalCannotOutliveTheRecordOfItsUse() {
    ApprovalClaims tooLong =
        new ApprovalClaims("ap-2", "t", "h", "alice", 0, ApprovalTokens.MAX_LIFETIME_SECONDS + 1);

    assertThatThrownBy(() -> ApprovalTokens.mint(tooLong, ALICE))
        .hasMessageContaining("an approval holds 1 to 3600 s, was 3601 s");
  }

  @Test
  void aSidecarRefusesAKeySetHoldingAPrivateKey() throws Exception {
    Path leaked =
        Files.writeString(dir.resolve("keys.json"), "{\"keys\":[" + ALICE.toPrivateJson() + "]}");

    assertThatThrownBy(() -> ApprovalTokens.fromFile(leaked))
        .hasMessageContaining("a sidecar must be given public keys only");
  }

  @Test
  void theApproveCommandSignsATokenBoundToToolArgumentsAndApprover() throws Exception {
    Path privateKey = dir.resolve("carol.jwk");
    Path publicKeys = dir.resolve("approval-keys.json");
    assertThat(
            run(
                "approve",
                "keygen",
                "--key-id",
                "carol-2026",
                "--private",
                privateKey.toString(),
                "--public",
                publicKeys.toString()))
        .isZero();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Clock clock = Clock.fixed(Instant.ofEpochSecond(5_000), ZoneOffset.UTC);

    int code =
        Main.run(
            new String[] {
              "approve",
              "--key-file",
              privateKey.toString(),
              "--tool",
              "restart_deployment_job",
              "--arguments",
              "{\"job_id\":\"j1\",\"environment\":\"prod\"}",
              "--ttl-seconds",
              "60",
              "--approver",
              "carol"
            },
            new PrintStream(out),
            new PrintStream(err),
            clock);

    assertThat(code).isZero();
    ApprovalClaims claims = ApprovalTokens.fromFile(publicKeys).verify(out.toString().trim());
    assertThat(claims.tool()).isEqualTo("restart_deployment_job");
    assertThat(claims.argumentsHash())
        .isEqualTo(IdempotencyKeys.argumentsHash(Map.of("environment", "prod", "job_id", "j1")));
    assertThat(claims.expiresAtSeconds()).isEqualTo(5_060);
    assertThat(claims.approver()).isEqualTo("carol");
    assertThat(err.toString()).contains("by carol (key carol-2026)").contains("single-use");
    assertThat(Files.readString(publicKeys)).doesNotContain("\"d\"");
  }

  @Test
  void theApproveCommandExplainsBadInput() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int code =
        Main.run(
            new String[] {"approve", "--tool", "t"},
            new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err),
            Clock.systemUTC());

    assertThat(code).isEqualTo(2);
    assertThat(err.toString())
        .contains("Missing required options: --key-file, --tool and --arguments")
        .contains("Usage:");
  }

  @Test
  void theApproveCommandRefusesASidecarsPublicKeyAsItsSigningKey() throws Exception {
    Path publicKeys = Files.writeString(dir.resolve("pub.json"), ALICE.publicKeys().toJson());
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int code =
        Main.run(
            new String[] {
              "approve", "--key-file", publicKeys.toString(), "--tool", "t", "--arguments", "{}"
            },
            new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err),
            Clock.systemUTC());

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("cannot use the key file");
  }

  private static int run(String... args) {
    return Main.run(
        args,
        new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(new ByteArrayOutputStream()),
        Clock.systemUTC());
  }
}
