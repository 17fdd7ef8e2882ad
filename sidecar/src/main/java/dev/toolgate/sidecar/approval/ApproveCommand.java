package dev.toolgate.sidecar.approval;

import dev.toolgate.policy.approval.ApprovalClaims;
import dev.toolgate.policy.idempotency.IdempotencyKeys;
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
    description = {
      "Mints an approval token for one call of a tool with exactly these arguments, and prints it.",
      "The agent sends it in _meta \"dev.toolgate/approval\" (or the Toolgate-Approval header)."
          + " Single-use."
    })
public final class ApproveCommand implements Callable<Integer> {

  public static final long DEFAULT_TTL_SECONDS = 900;

  @Spec CommandSpec spec;

  @Option(
      names = "--key-file",
      required = true,
      paramLabel = "FILE",
      description = "The approval key (the sidecars' approvals.keyFile).")
  Path keyFile;

  @Option(
      names = "--tool",
      required = true,
      paramLabel = "NAME",
      description = "The tool approved.")
  String tool;

  @Option(
      names = "--arguments",
      required = true,
      paramLabel = "JSON",
      description = "The call's arguments, as the agent will send them.")
  String arguments;

  @Option(
      names = "--ttl-seconds",
      paramLabel = "N",
      defaultValue = "" + DEFAULT_TTL_SECONDS,
      description = "How long the approval holds (default ${DEFAULT-VALUE}).")
  long ttlSeconds;

  @Option(
      names = "--approver",
      paramLabel = "NAME",
      defaultValue = "${env:USER:-unknown}",
      description = "Who approves, recorded in the evidence (default $USER).")
  String approver;

  private final Clock clock;

  public ApproveCommand(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Integer call() {
    if (ttlSeconds < 1) {
      throw new ParameterException(
          spec.commandLine(), "--ttl-seconds must be >= 1, was " + ttlSeconds);
    }
    JsonObject parsed;
    try {
      parsed = new JsonObject(arguments);
    } catch (DecodeException | ClassCastException e) {
      throw new ParameterException(
          spec.commandLine(), "--arguments must be a JSON object: " + e.getMessage());
    }
    PrintWriter err = spec.commandLine().getErr();
    ApprovalTokens tokens;
    try {
      tokens = ApprovalTokens.fromFile(keyFile);
    } catch (IOException | IllegalArgumentException e) {
      err.println("error: cannot use the key file " + keyFile + ": " + e.getMessage());
      return 2;
    }
    long now = clock.millis() / 1000;
    String id = "ap-" + UUID.randomUUID();
    spec.commandLine()
        .getOut()
        .println(
            tokens.mint(
                new ApprovalClaims(
                    id,
                    tool,
                    IdempotencyKeys.argumentsHash(parsed.getMap()),
                    approver,
                    now,
                    now + ttlSeconds)));
    err.println("approval " + id + " for " + tool + ", valid " + ttlSeconds + " s, single-use");
    return 0;
  }
}
