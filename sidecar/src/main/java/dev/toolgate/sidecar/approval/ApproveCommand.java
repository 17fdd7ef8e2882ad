package dev.toolgate.sidecar.approval;

import dev.toolgate.policy.approval.ApprovalClaims;
import dev.toolgate.policy.idempotency.IdempotencyKeys;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.UUID;

/**
 * {@code toolgate-sidecar approve}: mints the approval token a human gives an agent for one call of
 * one tool with these exact arguments, valid for a while, usable once.
 */
public final class ApproveCommand {

  public static final long DEFAULT_TTL_SECONDS = 900;

  public static final String USAGE =
      """
      Usage: java -jar sidecar/target/toolgate-sidecar.jar approve --key-file FILE --tool NAME
                  --arguments JSON [--ttl-seconds N] [--approver NAME]

      Mints an approval token for one call of NAME with exactly these arguments. The agent sends it
      in _meta "dev.toolgate/approval" (or the Toolgate-Approval header). Single-use.
        --key-file FILE    the approval key (the sidecars' approvals.keyFile)
        --tool NAME        the tool approved
        --arguments JSON   the call's arguments, as the agent will send them
        --ttl-seconds N    how long the approval holds (default %d)
        --approver NAME    who approves, recorded in the evidence (default $USER)
      """
          .formatted(DEFAULT_TTL_SECONDS);

  private ApproveCommand() {}

  /** Runs the command; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err, Clock clock) {
    String keyFile = null;
    String tool = null;
    String arguments = null;
    long ttl = DEFAULT_TTL_SECONDS;
    String approver = System.getenv().getOrDefault("USER", "unknown");
    for (int i = 1; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("--help") || flag.equals("-h")) {
        out.print(USAGE);
        return 0;
      }
      if (i + 1 >= args.length) {
        return usage(err, flag + " needs a value");
      }
      String value = args[++i];
      switch (flag) {
        case "--key-file" -> keyFile = value;
        case "--tool" -> tool = value;
        case "--arguments" -> arguments = value;
        case "--approver" -> approver = value;
        case "--ttl-seconds" -> {
          try {
            ttl = Long.parseLong(value);
          } catch (NumberFormatException e) {
            return usage(err, "--ttl-seconds takes a whole number, was '" + value + "'");
          }
          if (ttl < 1) {
            return usage(err, "--ttl-seconds must be >= 1, was " + ttl);
          }
        }
        default -> {
          return usage(err, "unknown argument '" + flag + "'");
        }
      }
    }
    if (keyFile == null || tool == null || arguments == null) {
      return usage(err, "--key-file, --tool and --arguments are required");
    }
    JsonObject parsed;
    try {
      parsed = new JsonObject(arguments);
    } catch (DecodeException e) {
      return usage(err, "--arguments must be a JSON object: " + e.getMessage());
    }
    ApprovalTokens tokens;
    try {
      tokens = ApprovalTokens.fromFile(Path.of(keyFile));
    } catch (IOException | IllegalArgumentException e) {
      err.println("error: cannot use the key file " + keyFile + ": " + e.getMessage());
      return 2;
    }
    long now = clock.millis() / 1000;
    String id = "ap-" + UUID.randomUUID();
    out.println(
        tokens.mint(
            new ApprovalClaims(
                id,
                tool,
                IdempotencyKeys.argumentsHash(parsed.getMap()),
                approver,
                now,
                now + ttl)));
    err.println("approval " + id + " for " + tool + ", valid " + ttl + " s, single-use");
    return 0;
  }

  private static int usage(PrintStream err, String message) {
    err.println("error: " + message + "\n\n" + USAGE);
    return 2;
  }
}
