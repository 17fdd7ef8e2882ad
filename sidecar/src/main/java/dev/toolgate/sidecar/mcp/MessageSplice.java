package dev.toolgate.sidecar.mcp;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;

/**
 * A JSON-RPC message passed on under another id without being re-encoded: its bytes as they came,
 * with the value of its top-level {@code id} replaced and, for a request, the sidecar's {@code
 * _meta} put at the head of its {@code params}.
 *
 * <p>Algorithm: where the edits go comes from a request's parse ({@link ParsedMessage}), or, for an
 * answer, from one pass over its bytes ({@link MessageScanner}: no value built, no allocation) that
 * finds the id's value; then the message is copied once around the edits. O(length), against
 * re-encoding, which copies the maps and writes every string of the arguments or the result again.
 *
 * <p>The splice declines (returns null, and the caller re-encodes) wherever the bytes could mean
 * two things or the scan is not sure of them: a key given twice in any object of the message — a
 * parser keeps the last one, and passing both on would let the next hop act on the one the policy
 * did not see — a key with an escape or a non-ASCII byte (two spellings of one key), a message that
 * is not one JSON object in UTF-8, an id that is missing, an object or an array, {@code params}
 * that is not an object or already has a {@code _meta}; and, where the bytes are scanned, nesting
 * deeper than {@value MessageScanner#MAX_DEPTH} levels, or more than {@value
 * MessageScanner#MAX_KEYS} keys open at once.
 */
public final class MessageSplice {

  private static final byte[] NO_BYTES = {};
  private static final byte[] DATA_FIELD = "data: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] EVENT_END = "\n\n".getBytes(StandardCharsets.US_ASCII);

  private MessageSplice() {}

  /**
   * The message with its top-level id set to {@code id}; null when it must be re-encoded instead.
   * {@code message} is one a parse accepted: the scan checks its structure, not its UTF-8.
   */
  public static Buffer withId(Buffer message, Object id) {
    MessageScanner.Layout layout = MessageScanner.scan(message);
    return layout == null ? null : withId(message, layout, id);
  }

  /**
   * The message with its top-level id set to {@code id}, as one server-sent event of the default
   * type on one {@code data:} line; null when it must be re-encoded instead, or when its bytes hold
   * a line break (which would split the line).
   */
  public static Buffer eventWithId(Buffer message, Object id) {
    MessageScanner.Layout layout = MessageScanner.scan(message);
    return layout == null || layout.lineBreaks() ? null : eventWithId(message, layout, id);
  }

  static Buffer withId(Buffer message, MessageScanner.Layout layout, Object id) {
    return withId(message, layout.idStart(), layout.idEnd(), id, NO_BYTES, NO_BYTES);
  }

  static Buffer eventWithId(Buffer message, MessageScanner.Layout layout, Object id) {
    return withId(message, layout.idStart(), layout.idEnd(), id, DATA_FIELD, EVENT_END);
  }

  /**
   * A parsed message with its top-level id set to {@code id}, from the layout its parse found; null
   * when it must be re-encoded instead.
   */
  public static Buffer withId(ParsedMessage message, Object id) {
    return message.idStart() < 0
        ? null
        : withId(message.bytes(), message.idStart(), message.idEnd(), id, NO_BYTES, NO_BYTES);
  }

  private static Buffer withId(
      Buffer message, int idStart, int idEnd, Object id, byte[] head, byte[] tail) {
    byte[] value = json(id);
    Buffer out =
        Buffer.buffer(
            head.length + message.length() - (idEnd - idStart) + value.length + tail.length);
    return out.appendBytes(head)
        .appendBuffer(message, 0, idStart)
        .appendBytes(value)
        .appendBuffer(message, idEnd, message.length() - idEnd)
        .appendBytes(tail);
  }

  /**
   * A parsed request with its top-level id set to {@code id} and {@code meta} as the {@code _meta}
   * of its params, from the layout its parse found; null when it must be re-encoded instead.
   */
  public static Buffer withIdAndMeta(ParsedMessage request, Object id, JsonObject meta) {
    int idStart = request.idStart();
    int idEnd = request.idEnd();
    int paramsBody = request.paramsBody();
    if (idStart < 0 || paramsBody < 0) {
      return null;
    }
    Buffer bytes = request.bytes();
    byte[] value = json(id);
    byte[] entry = metaEntry(meta, !request.paramsEmpty());
    Buffer out = Buffer.buffer(bytes.length() - (idEnd - idStart) + value.length + entry.length);
    int tail = idEnd;
    if (paramsBody <= idStart) {
      out.appendBuffer(bytes, 0, paramsBody)
          .appendBytes(entry)
          .appendBuffer(bytes, paramsBody, idStart - paramsBody)
          .appendBytes(value);
    } else {
      out.appendBuffer(bytes, 0, idStart)
          .appendBytes(value)
          .appendBuffer(bytes, idEnd, paramsBody - idEnd)
          .appendBytes(entry);
      tail = paramsBody;
    }
    return out.appendBuffer(bytes, tail, bytes.length() - tail);
  }

  /** {@code "_meta":{...}}, and a comma when more keys follow it. */
  private static byte[] metaEntry(JsonObject meta, boolean comma) {
    StringJoiner entries = new StringJoiner(",", "\"_meta\":{", comma ? "}," : "}");
    meta.forEach(e -> entries.add(JsonText.of(e.getKey()) + ':' + JsonText.of(e.getValue())));
    return entries.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] json(Object value) {
    return JsonText.of(value).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A JSON value's text: written here when it is a plain string or a whole number, by Vert.x
   * otherwise.
   */
  private static final class JsonText {
    private JsonText() {}

    static String of(Object value) {
      if (value instanceof String s && plain(s)) {
        return '"' + s + '"';
      }
      if (value instanceof Integer || value instanceof Long) {
        return value.toString();
      }
      return Json.encode(value);
    }

    private static boolean plain(String s) {
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
          return false;
        }
      }
      return true;
    }
  }
}
