package dev.toolgate.sidecar.admin;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code toolgate-sidecar quota raise|reset}: the administrator's side of seed 002's manual raise.
 */
public final class QuotaCommand {

  public static final String USAGE =
      """
      Usage: java -jar sidecar/target/toolgate-sidecar.jar quota raise --session ID [--reads N] [--writes N]
                  [--admin URL] --token-file FILE
             java -jar sidecar/target/toolgate-sidecar.jar quota reset --session ID [--admin URL] --token-file FILE

      Raises (adds to) or resets a session's quota, on every replica sharing the state.
        --admin URL        the sidecar's admin listener (default http://127.0.0.1:15020)
        --token-file FILE  the admin token (the sidecar's admin.tokenFile)
      """;

  private QuotaCommand() {}

  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length < 2 || !(args[1].equals("raise") || args[1].equals("reset"))) {
      err.print(USAGE);
      return args.length >= 2 && (args[1].equals("--help") || args[1].equals("-h")) ? 0 : 2;
    }
    String action = args[1];
    String admin = "http://127.0.0.1:15020";
    String tokenFile = null;
    JsonObject body = new JsonObject();
    for (int i = 2; i < args.length; i++) {
      if (i + 1 >= args.length) {
        return usage(err, args[i] + " needs a value");
      }
      String value = args[++i];
      switch (args[i - 1]) {
        case "--session" -> body.put("session", value);
        case "--reads", "--writes" -> {
          try {
            body.put(args[i - 1].substring(2), Integer.parseInt(value));
          } catch (NumberFormatException e) {
            return usage(err, args[i - 1] + " takes a whole number, was '" + value + "'");
          }
        }
        case "--admin" -> admin = value;
        case "--token-file" -> tokenFile = value;
        default -> {
          return usage(err, "unknown argument '" + args[i - 1] + "'");
        }
      }
    }
    if (tokenFile == null || body.getString("session") == null) {
      return usage(err, "--session and --token-file are required");
    }
    try {
      String token = Files.readString(Path.of(tokenFile)).strip();
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(admin + "/admin/quotas/" + action))
                      .timeout(Duration.ofSeconds(10))
                      .header("Authorization", "Bearer " + token)
                      .header("Content-Type", "application/json")
                      .POST(HttpRequest.BodyPublishers.ofString(body.encode()))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      (response.statusCode() == 200 ? out : err).println(response.body());
      return response.statusCode() == 200 ? 0 : 1;
    } catch (IOException e) {
      err.println("error: " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  private static int usage(PrintStream err, String message) {
    err.println("error: " + message + "\n\n" + USAGE);
    return 2;
  }
}
