package dev.toolgate.state;

import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * Tokens from a file, for machines without Kubernetes and for tests: {@code {"tokens": [{"token":
 * "...", "namespace": "agents", "workload": "ops-assistant"}, {"token": "...", "publisher":
 * true}]}}. Each token is at least 32 characters; they are compared in constant time.
 */
public final class StaticTokens implements Authenticator {

  /** The shortest token accepted: a guessable one would be no credential. */
  public static final int MIN_TOKEN_LENGTH = 32;

  private record Entry(byte[] token, Caller caller) {}

  private final List<Entry> entries;

  private StaticTokens(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  public static StaticTokens load(Path file) throws IOException {
    return parse(Files.readString(file), file.toString());
  }

  static StaticTokens parse(String json, String source) {
    JsonArray tokens;
    try {
      tokens = new JsonObject(json).getJsonArray("tokens");
    } catch (DecodeException | ClassCastException e) {
      throw new IllegalArgumentException(source + ": not {\"tokens\": [...]}: " + e.getMessage());
    }
    if (tokens == null || tokens.isEmpty()) {
      throw new IllegalArgumentException(source + ": no tokens");
    }
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      JsonObject t = tokens.getJsonObject(i);
      String token = t.getString("token");
      if (token == null || token.length() < MIN_TOKEN_LENGTH) {
        throw new IllegalArgumentException(
            source + ": tokens[" + i + "].token must have " + MIN_TOKEN_LENGTH + "+ characters");
      }
      Caller caller =
          t.getBoolean("publisher", false)
              ? Caller.publisher(t.getString("workload", "publisher"))
              : Caller.sidecar(t.getString("namespace"), t.getString("workload", "unnamed"));
      entries.add(new Entry(token.getBytes(StandardCharsets.UTF_8), caller));
    }
    return new StaticTokens(entries);
  }

  @Override
  public Future<Caller> authenticate(String token) {
    byte[] presented = token.getBytes(StandardCharsets.UTF_8);
    Caller found = null;
    for (Entry e : entries) {
      // Every entry is compared, found or not: the time taken says nothing about the tokens.
      if (MessageDigest.isEqual(e.token(), presented)) {
        found = e.caller();
      }
    }
    return found == null
        ? Future.failedFuture("the token is not one this service knows")
        : Future.succeededFuture(found);
  }
}
