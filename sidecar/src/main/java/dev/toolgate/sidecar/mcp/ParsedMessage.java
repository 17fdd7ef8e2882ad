package dev.toolgate.sidecar.mcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonTokenId;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON-RPC message read once: its value, the same one {@link Json#decodeValue(Buffer)} builds,
 * and, found on the same pass, where in its bytes a copy's edits go ({@link MessageSplice}), so
 * that a request is not scanned again to be passed on.
 *
 * <p>Algorithm: Jackson's streaming parser, strict JSON, builds the maps and lists as Vert.x's
 * decoder does, and notes the byte offsets of the top-level id's value and of the params' opening
 * brace. The edits are refused (the caller re-encodes) wherever the bytes could mean two things, as
 * {@link MessageScanner} refuses them: a key given twice in one object (its map does not grow), a
 * key that is not plain ASCII written without an escape (its text compared with its bytes), a
 * message that is not UTF-8 (the parser has no byte offsets) or does not open with its brace (a
 * byte-order mark), an id that is missing, an object or an array. What strict JSON refuses — the
 * comments Vert.x's decoder allows, or bad input — is decoded again by Vert.x, which accepts it
 * without edits or throws.
 *
 * <p>Cost: Jackson's parse, the one {@link Json#decodeValue(Buffer)} makes, plus the bytes' copy
 * into a per-thread array, a search of them for a backslash eight to a step, and a check of each
 * key's characters; only where a backslash is found are the keys' bytes compared with their text
 * (reading a key's location allocates).
 */
public final class ParsedMessage {

  /** Jackson's defaults: strict JSON, and the same limits as Vert.x's decoder. */
  private static final JsonFactory STRICT = JsonFactory.builder().build();

  private final Object value;
  private final Buffer bytes;
  private final int idStart;
  private final int idEnd;
  private final int paramsBody;
  private final boolean paramsEmpty;

  private ParsedMessage(
      Object value, Buffer bytes, int idStart, int idEnd, int paramsBody, boolean paramsEmpty) {
    this.value = value;
    this.bytes = bytes;
    this.idStart = idStart;
    this.idEnd = idEnd;
    this.paramsBody = paramsBody;
    this.paramsEmpty = paramsEmpty;
  }

  /**
   * Parses a message.
   *
   * @throws DecodeException where the bytes are not JSON, as {@link Json#decodeValue(Buffer)} does
   */
  public static ParsedMessage parse(Buffer bytes) {
    int length = bytes.length();
    byte[] b = ByteWords.copyOf(bytes);
    Reader reader;
    Object value;
    try (JsonParser parser = STRICT.createParser(b, 0, length)) {
      reader = new Reader(parser, b, length);
      value = reader.message();
    } catch (IOException e) {
      return new ParsedMessage(Json.decodeValue(bytes), bytes, -1, -1, -1, false);
    }
    if (!reader.spliceable || reader.idStart < 0) {
      return new ParsedMessage(value, bytes, -1, -1, -1, false);
    }
    return new ParsedMessage(
        value,
        bytes,
        reader.idStart,
        reader.idEnd,
        reader.paramsHaveMeta ? -1 : reader.paramsBody,
        reader.paramsEmpty);
  }

  /** A message the sidecar wrote itself: no bytes as they came, so nothing to splice. */
  public static ParsedMessage written(JsonObject message) {
    return new ParsedMessage(message, null, -1, -1, -1, false);
  }

  /** The message: a {@link JsonObject}, a {@link JsonArray}, or a plain value. */
  public Object value() {
    return value;
  }

  /** The message as it came; null for one the sidecar wrote. */
  public Buffer bytes() {
    return bytes;
  }

  /** Where the top-level id's value starts; -1 where no copy can be spliced. */
  int idStart() {
    return idStart;
  }

  /** Just past the top-level id's value. */
  int idEnd() {
    return idEnd;
  }

  /**
   * Just past the params' opening brace; -1 where params is not an object without {@code _meta}.
   */
  int paramsBody() {
    return paramsBody;
  }

  /** Whether the params object has no key. */
  boolean paramsEmpty() {
    return paramsEmpty;
  }

  /** One parse's walk over the tokens; notes the layout while the message may be spliced. */
  private static final class Reader {
    private final JsonParser parser;
    private final byte[] b;
    private final int n;

    /**
     * Whether a backslash is among the bytes: only then can a key hold an escape, and keys' bytes
     * are read.
     */
    private final boolean backslash;

    private boolean spliceable = true;
    private int idStart = -1;
    private int idEnd = -1;
    private int paramsBody = -1;
    private boolean paramsEmpty;
    private boolean paramsHaveMeta;

    Reader(JsonParser parser, byte[] b, int n) {
      this.parser = parser;
      this.b = b;
      this.n = n;
      this.backslash = ByteWords.contains(b, n, (byte) '\\');
    }

    Object message() throws IOException {
      JsonToken first = parser.nextToken();
      if (first == JsonToken.START_OBJECT) {
        int at = offset(parser.currentTokenLocation().getByteOffset());
        spliceable = at >= 0 && b[at] == '{' && whitespaceBefore(at);
      } else {
        spliceable = false;
      }
      Object value = any(1);
      if (parser.nextToken() != null) {
        throw new DecodeException("Unexpected trailing token");
      }
      if (value instanceof Map<?, ?> map) {
        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) map;
        return new JsonObject(object);
      }
      if (value instanceof List<?> list) {
        return new JsonArray(list);
      }
      return value;
    }

    /** At a value's first token, the message itself at depth 1. */
    private Object any(int depth) throws IOException {
      switch (parser.currentTokenId()) {
        case JsonTokenId.ID_START_OBJECT:
          return object(depth);
        case JsonTokenId.ID_START_ARRAY:
          return array(depth);
        case JsonTokenId.ID_STRING:
          return parser.getText();
        case JsonTokenId.ID_NUMBER_INT:
        case JsonTokenId.ID_NUMBER_FLOAT:
          return parser.getNumberValue();
        case JsonTokenId.ID_TRUE:
          return Boolean.TRUE;
        case JsonTokenId.ID_FALSE:
          return Boolean.FALSE;
        case JsonTokenId.ID_NULL:
          return null;
        default:
          throw new DecodeException("Unexpected token");
      }
    }

    private Map<String, Object> object(int depth) throws IOException {
      Map<String, Object> map = new LinkedHashMap<>();
      for (String key = parser.nextFieldName(); key != null; key = parser.nextFieldName()) {
        if (spliceable) {
          spliceable = plain(key);
        }
        JsonToken token = parser.nextToken();
        Object value;
        if (depth == 1 && spliceable && key.equals("id")) {
          value = id(token);
        } else if (depth == 1
            && spliceable
            && key.equals("params")
            && token == JsonToken.START_OBJECT) {
          paramsBody = offset(parser.currentTokenLocation().getByteOffset()) + 1;
          Map<String, Object> params = object(depth + 1);
          paramsEmpty = params.isEmpty();
          paramsHaveMeta = params.containsKey("_meta");
          value = params;
        } else {
          value = any(depth + 1);
        }
        int size = map.size();
        map.put(key, value);
        if (map.size() == size) {
          spliceable = false;
        }
      }
      return map;
    }

    private Object id(JsonToken token) throws IOException {
      if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
        spliceable = false;
        return any(2);
      }
      idStart = offset(parser.currentTokenLocation().getByteOffset());
      Object value = any(2);
      idEnd = offset(parser.currentLocation().getByteOffset());
      return value;
    }

    private List<Object> array(int depth) throws IOException {
      List<Object> list = new ArrayList<>();
      while (parser.nextToken() != JsonToken.END_ARRAY) {
        list.add(any(depth + 1));
      }
      return list;
    }

    /**
     * Whether the key at the current token is spelled in its bytes as its text: plain ASCII, no
     * escape.
     */
    private boolean plain(String key) {
      for (int i = 0; i < key.length(); i++) {
        char c = key.charAt(i);
        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
          return false;
        }
      }
      return !backslash || spelledAsItReads(key);
    }

    /**
     * Whether the key's bytes are its characters between two quotes (its location allocates, hence
     * only here).
     */
    private boolean spelledAsItReads(String key) {
      int start = offset(parser.currentTokenLocation().getByteOffset());
      int end = start + 1 + key.length();
      if (start < 0 || end >= n || b[start] != '"' || b[end] != '"') {
        return false;
      }
      for (int i = 0; i < key.length(); i++) {
        if (b[start + 1 + i] != key.charAt(i)) {
          return false;
        }
      }
      return true;
    }

    private boolean whitespaceBefore(int at) {
      for (int i = 0; i < at; i++) {
        byte c = b[i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
          return false;
        }
      }
      return true;
    }

    /** A byte offset, or -1 where the parser has none (a message it read as UTF-16 or UTF-32). */
    private static int offset(long byteOffset) {
      return byteOffset < 0 || byteOffset > Integer.MAX_VALUE ? -1 : (int) byteOffset;
    }
  }
}
