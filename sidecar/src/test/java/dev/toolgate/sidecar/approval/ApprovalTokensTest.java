package dev.toolgate.sidecar.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolgate.policy.approval.ApprovalClaims;
import dev.toolgate.policy.idempotency.IdempotencyKeys;
import dev.toolgate.sidecar.Main;
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

  private static final byte[] KEY =
      "0123456789abcdef0123456789abcdef-key".getBytes(StandardCharsets.UTF_8);
  private static final ApprovalClaims CLAIMS =
      new ApprovalClaims("ap-1", "restart_deployment_job", "h1", "alice", 100, 1000);

  @TempDir Path dir;

  @Test
  void verifiesWhatItMinted() throws Exception {
    ApprovalTokens tokens = new ApprovalTokens(KEY);

    assertThat(tokens.verify(tokens.mint(CLAIMS))).isEqualTo(CLAIMS);
  }

  @Test
  void refusesATokenSignedWithAnotherKey() {
    String forged =
        new ApprovalTokens("another-key-another-key-another-key!".getBytes()).mint(CLAIMS);

    assertThatThrownBy(() -> new ApprovalTokens(KEY).verify(forged))
        .isInstanceOf(InvalidApprovalException.class)
        .hasMessage("the approval token's signature does not verify");
  }

  @Test
  void refusesATokenWhoseClaimsWereEdited() throws Exception {
    String token = new ApprovalTokens(KEY).mint(CLAIMS);
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

    assertThatThrownBy(() -> new ApprovalTokens(KEY).verify(edited))
        .hasMessageContaining("does not verify");
  }

  @Test
  void refusesMalformedTokensAndShortKeys() {
    assertThatThrownBy(() -> new ApprovalTokens(KEY).verify("not-a-token"))
        .hasMessage("the approval token is not a compact JWS (three parts)");
    assertThatThrownBy(() -> new ApprovalTokens("short".getBytes()))
        .hasMessage("an approval key needs at least 32 bytes, was 5");
  }

  @Test
  void theApproveCommandMintsATokenBoundToToolAndArguments() throws Exception {
    Path key = dir.resolve("approval.key");
    Files.write(key, KEY);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Clock clock = Clock.fixed(Instant.ofEpochSecond(5_000), ZoneOffset.UTC);

    int code =
        Main.run(
            new String[] {
              "approve",
              "--key-file",
              key.toString(),
              "--tool",
              "restart_deployment_job",
              "--arguments",
              "{\"job_id\":\"j1\",\"environment\":\"prod\"}",
              "--ttl-seconds",
              "60",
              "--approver",
              "bob"
            },
            new PrintStream(out),
            new PrintStream(err),
            clock);

    assertThat(code).isZero();
    ApprovalClaims claims = new ApprovalTokens(KEY).verify(out.toString().trim());
    assertThat(claims.tool()).isEqualTo("restart_deployment_job");
    assertThat(claims.argumentsHash())
        .isEqualTo(IdempotencyKeys.argumentsHash(Map.of("environment", "prod", "job_id", "j1")));
    assertThat(claims.expiresAtSeconds()).isEqualTo(5_060);
    assertThat(claims.approver()).isEqualTo("bob");
    assertThat(err.toString()).contains("single-use");
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
        .contains("Missing required options: '--key-file=FILE', '--arguments=JSON'")
        .contains("Usage:");
  }
}
