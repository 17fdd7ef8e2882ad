package dev.toolgate.sidecar.admin;

import dev.toolgate.sidecar.LastResort;
import dev.toolgate.sidecar.config.LoadedConfig;
import dev.toolgate.sidecar.state.QuotaStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin API's state-changing calls ({@code POST /admin/quotas/raise|reset}). The bearer token
 * of {@code admin.tokenFile} is checked from the headers before any of the body is read; a body is
 * never held past {@link #MAX_BODY_BYTES} (a larger one is refused with 413 and the connection
 * closed), and an unauthenticated one is read only to be dropped, so its caller can read the
 * refusal. Every value is checked before anything changes: 400 names the field and its range.
 */
final class AdminChanges {

  private static final Logger LOG = LoggerFactory.getLogger(AdminChanges.class);

  /** The largest body an admin call may send: its JSON is a few dozen bytes. */
  static final int MAX_BODY_BYTES = 16 * 1024;

  /** The most reads or writes one raise may add. */
  static final int MAX_RAISE = 1_000_000;

  /** The longest session id accepted. */
  static final int MAX_SESSION_CHARS = 256;

  /** The shortest token accepted, as the configuration loader checks at load. */
  static final int MIN_TOKEN_CHARS = 16;

  /** Why a call was refused before its body counted: a status and what to tell the caller. */
  private record Denial(int status, String error, boolean challenge) {}

  /** A value the caller sent that cannot be used; its message names the field. */
  static final class BadInput extends RuntimeException {
    BadInput(String message) {
      super(message);
    }
  }

  private final Vertx vertx;
  private final Supplier<LoadedConfig> active;
  private final QuotaStore quotas;
  private final Clock clock;
  private final LastResort lastResort;

  AdminChanges(
      Vertx vertx,
      Supplier<LoadedConfig> active,
      QuotaStore quotas,
      Clock clock,
      LastResort lastResort) {
    this.vertx = vertx;
    this.active = active;
    this.quotas = quotas;
    this.clock = clock;
    this.lastResort = lastResort;
  }

  /** Handles a POST under {@code /admin/}: authenticate, read the capped body, validate, change. */
  void handle(HttpServerRequest req) {
    if (declaredLength(req) > MAX_BODY_BYTES) {
      tooLarge(req);
      return;
    }
    req.pause();
    authenticate(req)
        .onComplete(
            auth -> {
              Denial denial = auth.succeeded() ? auth.result() : closed();
              readCapped(req, denial == null)
                  .onSuccess(
                      body -> {
                        if (denial != null) {
                          refuse(req, denial);
                        } else {
                          lastResort.guard(req, () -> change(req, body));
                        }
                      })
                  .onFailure(e -> tooLarge(req));
            });
  }

  private static long declaredLength(HttpServerRequest req) {
    String value = req.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (value == null) {
      return -1;
    }
    try {
      return Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  /**
   * Reads the body, kept only when {@code keep}; fails as soon as it passes {@link
   * #MAX_BODY_BYTES}.
   */
  private static Future<Buffer> readCapped(HttpServerRequest req, boolean keep) {
    Promise<Buffer> promise = Promise.promise();
    Buffer body = Buffer.buffer();
    long[] seen = {0};
    req.handler(
        chunk -> {
          seen[0] += chunk.length();
          if (seen[0] > MAX_BODY_BYTES) {
            req.handler(null);
            promise.tryFail("too large");
          } else if (keep) {
            body.appendBuffer(chunk);
          }
        });
    req.endHandler(v -> promise.tryComplete(body));
    req.exceptionHandler(promise::tryFail);
    req.resume();
    return promise.future();
  }

  private static void tooLarge(HttpServerRequest req) {
    if (req.response().ended()) {
      return;
    }
    req.response()
        .setStatusCode(413)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .putHeader(HttpHeaders.CONNECTION, "close")
        .end(
            new JsonObject()
                .put("error", "an admin call's body is at most " + MAX_BODY_BYTES + " bytes")
                .encode())
        .onComplete(v -> req.connection().close());
  }

  private static Denial closed() {
    return new Denial(
        503,
        "the admin API is closed until admin.tokenFile can be read (in a cluster: the"
            + " toolgate-admin-token Secret)",
        false);
  }

  /** The denial of a call, or null when it presents the token. Compared in constant time. */
  private Future<Denial> authenticate(HttpServerRequest req) {
    String tokenFile = active.get().config().admin().tokenFile();
    if (tokenFile == null) {
      return Future.succeededFuture(
          new Denial(403, "the admin API is disabled: set admin.tokenFile", false));
    }
    String given = req.getHeader(HttpHeaders.AUTHORIZATION);
    return vertx
        .fileSystem()
        .readFile(tokenFile)
        .map(
            buffer -> {
              String token = buffer.toString().strip();
              if (token.length() < MIN_TOKEN_CHARS) {
                return new Denial(
                    503, "the admin API is closed: admin.tokenFile holds no token", false);
              }
              byte[] expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
              if (given != null
                  && MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8))) {
                return null;
              }
              LOG.warn("refused an unauthenticated admin call to {}", req.path());
              return new Denial(401, "a valid bearer token (admin.tokenFile) is required", true);
            })
        .otherwise(e -> closed());
  }

  private static void refuse(HttpServerRequest req, Denial denial) {
    if (denial.challenge()) {
      req.response().putHeader("WWW-Authenticate", "Bearer");
    }
    AdminServer.json(req, denial.status(), new JsonObject().put("error", denial.error()));
  }

  private void change(HttpServerRequest req, Buffer body) {
    JsonObject in;
    String session;
    try {
      in = body.length() == 0 ? new JsonObject() : object(body);
      session = session(in);
    } catch (BadInput e) {
      AdminServer.json(req, 400, new JsonObject().put("error", e.getMessage()));
      return;
    }
    switch (req.path()) {
      case "/admin/quotas/raise" -> raise(req, in, session);
      case "/admin/quotas/reset" ->
          quotas
              .reset(session)
              .onSuccess(
                  v -> {
                    LOG.info("admin reset the quota of session {}", session);
                    AdminServer.json(
                        req, 200, new JsonObject().put("session", session).put("reset", true));
                  })
              .onFailure(e -> unavailable(req, e));
      default ->
          AdminServer.json(
              req,
              404,
              new JsonObject()
                  .put(
                      "error",
                      "unknown admin call; try /admin/quotas/raise or /admin/quotas/reset"));
    }
  }

  private void raise(HttpServerRequest req, JsonObject in, String session) {
    int reads;
    int writes;
    try {
      reads = count(in, "reads");
      writes = count(in, "writes");
      if (reads + writes == 0) {
        throw new BadInput("give 'reads' and/or 'writes' (1 to " + MAX_RAISE + ") to add");
      }
    } catch (BadInput e) {
      AdminServer.json(req, 400, new JsonObject().put("error", e.getMessage()));
      return;
    }
    quotas
        .raise(session, reads, writes, clock.millis())
        .onSuccess(
            u -> {
              LOG.info(
                  "admin raised the quota of session {} by {} reads, {} writes",
                  session,
                  reads,
                  writes);
              AdminServer.json(
                  req,
                  200,
                  new JsonObject()
                      .put("session", session)
                      .put("reads", u.reads())
                      .put("writes", u.writes())
                      .put("extraReads", u.extraReads())
                      .put("extraWrites", u.extraWrites()));
            })
        .onFailure(e -> unavailable(req, e));
  }

  private static void unavailable(HttpServerRequest req, Throwable e) {
    LOG.warn("an admin call to {} could not reach the shared state", req.path(), e);
    AdminServer.json(
        req,
        503,
        new JsonObject()
            .put("error", "the shared state cannot be reached; nothing was changed, try again"));
  }

  private static JsonObject object(Buffer body) {
    Object parsed;
    try {
      parsed = io.vertx.core.json.Json.decodeValue(body);
    } catch (RuntimeException e) {
      throw new BadInput("the body must be a JSON object");
    }
    if (parsed instanceof JsonObject o) {
      return o;
    }
    throw new BadInput("the body must be a JSON object");
  }

  static String session(JsonObject in) {
    Object value = in.getValue("session");
    if (!(value instanceof String s) || s.isBlank()) {
      throw new BadInput("'session' is required: the session id, a string");
    }
    if (s.length() > MAX_SESSION_CHARS) {
      throw new BadInput("'session' is at most " + MAX_SESSION_CHARS + " characters");
    }
    return s;
  }

  /** A whole number from 0 to {@link #MAX_RAISE} (0 when absent); anything else names the field. */
  static int count(JsonObject in, String field) {
    Object value = in.getValue(field);
    if (value == null) {
      return 0;
    }
    boolean whole =
        value instanceof Integer
            || value instanceof Long
            || value instanceof Short
            || value instanceof Byte
            || (value instanceof java.math.BigInteger b && b.bitLength() < 63);
    if (whole && ((Number) value).longValue() >= 0 && ((Number) value).longValue() <= MAX_RAISE) {
      return ((Number) value).intValue();
    }
    throw new BadInput(
        "'"
            + field
            + "' must be a whole number from 0 to "
            + MAX_RAISE
            + ", was "
            + (value instanceof String ? "the string \"" + value + "\"" : value));
  }
}
