package dev.toolgate.state;

import io.vertx.core.json.JsonObject;
import java.util.regex.Pattern;

/** A request body's fields, each checked for its type and bounds, or refused naming the field. */
final class Fields {

  /** A session id, idempotency key, breaker or lease: printable, bounded. */
  private static final Pattern NAME = Pattern.compile("[\\x21-\\x7e]{1,512}");

  private Fields() {}

  static String name(JsonObject body, String field) {
    Object value = body.getValue(field);
    if (!(value instanceof String s) || !NAME.matcher(s).matches()) {
      throw new IllegalArgumentException(
          field + ": must be 1 to 512 printable characters, was " + value);
    }
    return s;
  }

  static String text(JsonObject body, String field) {
    if (!(body.getValue(field) instanceof String s)) {
      throw new IllegalArgumentException(field + ": must be a string");
    }
    return s;
  }

  static boolean flag(JsonObject body, String field) {
    if (!(body.getValue(field) instanceof Boolean b)) {
      throw new IllegalArgumentException(field + ": must be true or false");
    }
    return b;
  }

  static int count(JsonObject body, String field) {
    if (!(body.getValue(field) instanceof Integer n) || n < 0 || n > 1_000_000) {
      throw new IllegalArgumentException(
          field + ": must be an integer from 0 to 1000000, was " + body.getValue(field));
    }
    return n;
  }

  static long millis(JsonObject body, String field) {
    if (!(body.getValue(field) instanceof Number n) || n.longValue() < 0) {
      throw new IllegalArgumentException(
          field + ": must be a time in ms >= 0, was " + body.getValue(field));
    }
    return n.longValue();
  }
}
