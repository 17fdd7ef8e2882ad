package dev.toolgate.sidecar.approval;

import dev.toolgate.policy.approval.ApprovalClaims;
import dev.toolgate.policy.idempotency.IdempotencyKeys;
import dev.toolgate.trust.SigningKey;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code toolgate-sidecar approve}: mints the approval token a human gives an agent for one call of
 * one tool with these exact arguments, valid for a while, usable once.
 */
@Command(
    name = "approve",
    mixinStandardHelpOptions = true,
    subcommands = ApprovalKeygenCommand.class,
    description = {
      "Signs an approval token for one call of a tool with exactly these arguments, and prints it.",
      "The agent sends it in _meta \"dev.toolgate/approval\" (or the Toolgate-Approval header)."
          + " Single-use."
    })
public final class ApproveCommand implements Callable<Integer> {

  public static final long DEFAULT_TTL_SECONDS = 900;

  @Spec CommandSpec spec;

  @Option(
      names = "--key-file",
      paramLabel = "FILE",
      description =
          "The approver's private key (required; a JWK, from approve keygen); the sidecars hold its"
              + " public half.")
  Path keyFile;

  @Option(names = "--tool", paramLabel = "NAME", description = "The tool approved (required).")
  String tool;

  @Option(
      names = "--arguments",
      paramLabel = "JSON",
      description = "The call's arguments, as the agent will send them (required).")
  String arguments;

  @Option(
      names = "--ttl-seconds",
      paramLabel = "N",
      defaultValue = "" + DEFAULT_TTL_SECONDS,
      description =
          "How long the approval holds, at most "
              + ApprovalTokens.MAX_LIFETIME_SECONDS
              + " (default ${DEFAULT-VALUE}).")
  long ttlSeconds;

  @Option(
      names = "--approver",
      paramLabel = "NAME",
      defaultValue = "${env:USER:-unknown}",
      description = "Who approves, in every event of the call (default $USER).")
  String approver;

  private final Clock clock;

  public ApproveCommand(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Integer call() {
    if (keyFile == null || tool == null || arguments == null) {
      throw new ParameterException(
          spec.commandLine(), "Missing required options: --key-file, --tool and --arguments");
    }
    if (approver == null || approver.isBlank()) {
      throw new ParameterException(spec.commandLine(), "--approver must name someone");
    }
    if (ttlSeconds < 1 || ttlSeconds > ApprovalTokens.MAX_LIFETIME_SECONDS) {
      throw new ParameterException(
          spec.commandLine(),
          "--ttl-seconds must be from 1 to "
              + ApprovalTokens.MAX_LIFETIME_SECONDS
              + ", was "
              + ttlSeconds);
    }
    JsonObject parsed;
    try {
      parsed = new JsonObject(arguments);
    } catch (DecodeException | ClassCastException e) {
      throw new ParameterException(
          spec.commandLine(), "--arguments must be a JSON object: " + e.getMessage());
    }
    PrintWriter err = spec.commandLine().getErr();
    SigningKey key;
    try {
      key = SigningKey.read(keyFile);
    } catch (IOException | IllegalArgumentException e) {
      err.println("error: cannot use the key file " + keyFile + ": " + e.getMessage());
      return 2;
    }
    long now = clock.millis() / 1000;
    String id = "ap-" + UUID.randomUUID();
    spec.commandLine()
        .getOut()
        .println(
            ApprovalTokens.mint(
                new ApprovalClaims(
                    id,
                    tool,
                    IdempotencyKeys.argumentsHash(parsed.getMap()),
                    approver,
                    now,
                    now + ttlSeconds),
                key));
    err.println(
        "approval "
            + id
            + " by "
            + approver
            + " (key "
            + key.keyId()
            + ") for "
            + tool
            + ", valid "
            + ttlSeconds
            + " s, single-use");
    return 0;
  }
}
