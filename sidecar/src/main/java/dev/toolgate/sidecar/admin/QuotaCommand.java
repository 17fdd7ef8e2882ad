package dev.toolgate.sidecar.admin;

import dev.toolgate.sidecar.Main;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code toolgate-sidecar quota raise|reset}: the administrator's side of seed 002's manual raise,
 * through the admin API of one sidecar, effective on every replica sharing the state.
 */
@Command(
    name = "quota",
    mixinStandardHelpOptions = true,
    description =
        "Raises (adds to) or resets a session's quota, on every replica sharing the state.",
    subcommands = {QuotaCommand.Raise.class, QuotaCommand.Reset.class})
public final class QuotaCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  /**
   * Runs {@code quota ...} as given to the sidecar's jar (the first argument is the command's
   * name); returns the exit code.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return Main.run(args, out, err, Clock.systemUTC());
  }

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "say which: quota raise or quota reset");
  }

  /** Which sidecar, with which token, about which session. */
  static final class Target {
    @Option(
        names = "--session",
        required = true,
        paramLabel = "ID",
        description = "The session, as the agent's quota_exceeded answer names it.")
    String session;

    @Option(
        names = "--admin",
        paramLabel = "URL",
        defaultValue = "http://127.0.0.1:17020",
        description = "The sidecar's admin listener (default ${DEFAULT-VALUE}).")
    URI admin;

    @Option(
        names = "--token-file",
        required = true,
        paramLabel = "FILE",
        description = "The admin token (the sidecar's admin.tokenFile).")
    Path tokenFile;
  }

  @Command(
      name = "raise",
      mixinStandardHelpOptions = true,
      description = "Adds reads or writes to a session's quota.")
  static final class Raise implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin Target target;

    @Option(names = "--reads", paramLabel = "N", description = "Reads to add (1 to 1000000).")
    Integer reads;

    @Option(names = "--writes", paramLabel = "N", description = "Writes to add (1 to 1000000).")
    Integer writes;

    @Override
    public Integer call() {
      for (Integer n : new Integer[] {reads, writes}) {
        if (n != null && (n < 1 || n > AdminChanges.MAX_RAISE)) {
          throw new ParameterException(
              spec.commandLine(),
              "--reads and --writes add 1 to " + AdminChanges.MAX_RAISE + " each, was " + n);
        }
      }
      if (reads == null && writes == null) {
        throw new ParameterException(spec.commandLine(), "give --reads N, --writes N or both");
      }
      JsonObject body = new JsonObject().put("session", target.session);
      if (reads != null) {
        body.put("reads", reads);
      }
      if (writes != null) {
        body.put("writes", writes);
      }
      return post(spec, target, "raise", body);
    }
  }

  @Command(
      name = "reset",
      mixinStandardHelpOptions = true,
      description = "Resets a session's counters.")
  static final class Reset implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin Target target;

    @Override
    public Integer call() {
      return post(spec, target, "reset", new JsonObject().put("session", target.session));
    }
  }

  private static String stripSlash(URI admin) {
    String text = admin.toString();
    return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
  }

  private static int post(CommandSpec spec, Target target, String action, JsonObject body) {
    try {
      String token = Files.readString(target.tokenFile).strip();
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(stripSlash(target.admin) + "/admin/quotas/" + action))
                      .timeout(Duration.ofSeconds(10))
                      .header("Authorization", "Bearer " + token)
                      .header("Content-Type", "application/json")
                      .POST(HttpRequest.BodyPublishers.ofString(body.encode()))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      boolean ok = response.statusCode() == 200;
      (ok ? spec.commandLine().getOut() : spec.commandLine().getErr()).println(response.body());
      return ok ? 0 : 1;
    } catch (IOException e) {
      spec.commandLine().getErr().println("error: " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }
}
