package dev.toolgate.sidecar.mcp;

import io.vertx.core.buffer.Buffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One pass over a JSON-RPC message's bytes that finds its top-level id's value and its params'
 * object, and makes sure on the way that the bytes mean one thing only: standard JSON, one object,
 * no key twice in any object, every key plain ASCII without escapes (then two keys are the same key
 * exactly when their bytes are equal). Anything else ends the scan with no layout, and the message
 * is re-encoded instead of spliced.
 *
 * <p>Cost: O(length) byte comparisons (strings eight bytes to a step), plus O(k²) key comparisons
 * for an object of k keys; the
 * bytes are copied into a per-thread scratch array, and nothing else is allocated but the layout.
 * Not reentrant within a thread (nothing it calls scans again).
 */
final class MessageScanner {

  /** Deeper nesting is not scanned (re-encoded instead): the scan recurses once per level. */
  static final int MAX_DEPTH = 64;
  /** Keys of the objects open at once beyond which a message is re-encoded instead. */
  static final int MAX_KEYS = 256;
  /** A scratch array grown past this by a large message is not kept. */
  private static final int MAX_KEPT_BYTES = 64 * 1024;

  private static final byte[] ID = {'i', 'd'};
  private static final byte[] PARAMS = {'p', 'a', 'r', 'a', 'm', 's'};
  private static final byte[] META = {'_', 'm', 'e', 't', 'a'};

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGH_BITS = 0x8080808080808080L;

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  /**
   * Where a message's edits go, as byte offsets.
   *
   * @param idStart where the top-level id's value starts
   * @param idEnd just past it
   * @param paramsBody just past the params' opening brace, or -1 when params was not asked for
   * @param paramsEmpty whether the params object has no key
   * @param lineBreaks whether a CR or LF is among the bytes (only whitespace can hold one: strings
   *     with control characters are not scanned)
   */
  record Layout(int idStart, int idEnd, int paramsBody, boolean paramsEmpty, boolean lineBreaks) {}

  private static final class Scratch {
    byte[] bytes = new byte[4096];
    final int[] keyStart = new int[MAX_KEYS];
    final int[] keyEnd = new int[MAX_KEYS];
  }

  private final byte[] b;
  private final int n;
  private final int[] keyStart;
  private final int[] keyEnd;
  private int pos;
  private int keys;
  private int idStart = -1;
  private int idEnd = -1;
  private int paramsBody = -1;
  private boolean paramsEmpty;
  private boolean paramsHaveMeta;
  private boolean lineBreaks;

  private MessageScanner(byte[] bytes, int length, Scratch scratch) {
    this.b = bytes;
    this.n = length;
    this.keyStart = scratch.keyStart;
    this.keyEnd = scratch.keyEnd;
  }

  /**
   * The layout of a message, or null where it must be re-encoded.
   *
   * @param withParams whether the message must have a params object without {@code _meta}
   */
  static Layout scan(Buffer message, boolean withParams) {
    Scratch scratch = SCRATCH.get();
    int length = message.length();
    byte[] bytes = scratch.bytes;
    if (bytes.length < length) {
      bytes = new byte[length];
      if (length <= MAX_KEPT_BYTES) {
        scratch.bytes = bytes;
      }
    }
    message.getBytes(0, length, bytes, 0);
    MessageScanner scanner = new MessageScanner(bytes, length, scratch);
    if (!scanner.message(withParams)) {
      return null;
    }
    return new Layout(scanner.idStart, scanner.idEnd, scanner.paramsBody, scanner.paramsEmpty, scanner.lineBreaks);
  }

  private boolean message(boolean withParams) {
    whitespace();
    if (!at('{') || !object(1, withParams, false)) {
      return false;
    }
    whitespace();
    return pos == n && idStart >= 0 && (!withParams || (paramsBody >= 0 && !paramsHaveMeta));
  }

  /** At a value of the given depth (the message itself is depth 1). */
  private boolean value(int depth) {
    if (pos >= n) {
      return false;
    }
    return switch (b[pos]) {
      case '{' -> object(depth, false, false);
      case '[' -> array(depth);
      case '"' -> string();
      default -> scalar();
    };
  }

  private boolean object(int depth, boolean withParams, boolean isParams) {
    if (depth > MAX_DEPTH) {
      return false;
    }
    pos++;
    int base = keys;
    whitespace();
    if (at('}')) {
      pos++;
      return true;
    }
    while (true) {
      int start = pos + 1;
      if (!at('"') || !key()) {
        return false;
      }
      int end = pos - 1;
      if (!remember(base, start, end)) {
        return false;
      }
      if (isParams) {
        paramsEmpty = false;
        paramsHaveMeta |= is(start, end, META);
      }
      whitespace();
      if (!at(':')) {
        return false;
      }
      pos++;
      whitespace();
      if (depth == 1 && is(start, end, ID)) {
        if (at('{') || at('[')) {
          return false;
        }
        idStart = pos;
        if (!value(depth + 1)) {
          return false;
        }
        idEnd = pos;
      } else if (depth == 1 && withParams && is(start, end, PARAMS)) {
        if (!at('{')) {
          return false;
        }
        paramsBody = pos + 1;
        paramsEmpty = true;
        if (!object(depth + 1, false, true)) {
          return false;
        }
      } else if (!value(depth + 1)) {
        return false;
      }
      whitespace();
      if (at(',')) {
        pos++;
        whitespace();
      } else if (at('}')) {
        pos++;
        keys = base;
        return true;
      } else {
        return false;
      }
    }
  }

  private boolean array(int depth) {
    if (depth > MAX_DEPTH) {
      return false;
    }
    pos++;
    whitespace();
    if (at(']')) {
      pos++;
      return true;
    }
    while (true) {
      if (!value(depth + 1)) {
        return false;
      }
      whitespace();
      if (at(',')) {
        pos++;
        whitespace();
      } else if (at(']')) {
        pos++;
        return true;
      } else {
        return false;
      }
    }
  }

  /** At a key's opening quote: plain ASCII, no escape, no control character. */
  private boolean key() {
    for (pos++; pos < n; pos++) {
      int c = b[pos] & 0xFF;
      if (c == '"') {
        pos++;
        return true;
      }
      if (c == '\\' || c < 0x20 || c >= 0x80) {
        return false;
      }
    }
    return false;
  }

  /** At a string's opening quote: to just past its closing one, eight plain bytes at a time. */
  private boolean string() {
    pos++;
    while (true) {
      while (pos + Long.BYTES <= n && plain((long) LONGS.get(b, pos))) {
        pos += Long.BYTES;
      }
      if (pos >= n) {
        return false;
      }
      int c = b[pos] & 0xFF;
      if (c == '"') {
        pos++;
        return true;
      }
      if (c == '\\') {
        pos += 2;
      } else if (c < 0x20) {
        return false;
      } else {
        pos++;
      }
    }
  }

  /**
   * Whether none of a word's eight bytes is a quote, a backslash or a control character: for each,
   * {@code (v - 0x01..) & ~v & 0x80..} is non-zero exactly when some byte of {@code v} is zero (and
   * {@code (w - 0x20..) & ~w & 0x80..} when some byte of {@code w} is below 0x20).
   */
  private static boolean plain(long word) {
    long quote = word ^ 0x2222222222222222L;
    long backslash = word ^ 0x5C5C5C5C5C5C5C5CL;
    long found = ((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash)
        | ((word - 0x2020202020202020L) & ~word);
    return (found & HIGH_BITS) == 0;
  }

  /** A number, true, false or null: to the next delimiter, spelled as JSON spells them. */
  private boolean scalar() {
    int start = pos;
    while (pos < n && !delimiter(b[pos])) {
      pos++;
    }
    if (pos == start) {
      return false;
    }
    byte first = b[start];
    if (first == 't' || first == 'f' || first == 'n') {
      return literal(start, "true") || literal(start, "false") || literal(start, "null");
    }
    return number(start);
  }

  /** JSON's number grammar over {@code [start, pos)}: {@code -? (0 | [1-9]\d*) (.\d+)? ([eE][+-]?\d+)?}. */
  private boolean number(int start) {
    int i = start;
    if (b[i] == '-') {
      i++;
    }
    if (i < pos && b[i] == '0') {
      i++;
    } else {
      int digits = digits(i);
      if (digits == 0) {
        return false;
      }
      i += digits;
    }
    if (i < pos && b[i] == '.') {
      int digits = digits(++i);
      if (digits == 0) {
        return false;
      }
      i += digits;
    }
    if (i < pos && (b[i] == 'e' || b[i] == 'E')) {
      i++;
      if (i < pos && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      int digits = digits(i);
      if (digits == 0) {
        return false;
      }
      i += digits;
    }
    return i == pos;
  }

  private int digits(int from) {
    int i = from;
    while (i < pos && b[i] >= '0' && b[i] <= '9') {
      i++;
    }
    return i - from;
  }

  private boolean literal(int start, String word) {
    if (pos - start != word.length()) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if (b[start + i] != word.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Keeps the key {@code [start, end)} of the object whose keys begin at {@code base}; false if it has it already. */
  private boolean remember(int base, int start, int end) {
    for (int i = base; i < keys; i++) {
      if (Arrays.equals(b, keyStart[i], keyEnd[i], b, start, end)) {
        return false;
      }
    }
    if (keys == MAX_KEYS) {
      return false;
    }
    keyStart[keys] = start;
    keyEnd[keys] = end;
    keys++;
    return true;
  }

  private boolean is(int start, int end, byte[] word) {
    return Arrays.equals(b, start, end, word, 0, word.length);
  }

  private boolean at(char c) {
    return pos < n && b[pos] == c;
  }

  private void whitespace() {
    while (pos < n) {
      byte c = b[pos];
      if (c == '\n' || c == '\r') {
        lineBreaks = true;
      } else if (c != ' ' && c != '\t') {
        return;
      }
      pos++;
    }
  }

  private static boolean delimiter(byte c) {
    return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }
}
