package dev.toolgate.sidecar.mcp;

import io.vertx.core.buffer.Buffer;
import java.util.Arrays;

/**
 * One pass over a JSON-RPC answer's bytes that finds its top-level id's value and where its result
 * and error are, and makes sure on the way that the bytes mean one thing only: standard JSON, one
 * object, no key twice in any object, every key plain ASCII without escapes (then two keys are the
 * same key exactly when their bytes are equal), every escape one JSON allows, and no number longer
 * than Jackson reads. Anything else ends the scan with no layout, and the answer is parsed (and
 * re-encoded) instead. A request is not scanned: its parse finds its layout ({@link
 * ParsedMessage}).
 *
 * <p>Cost: O(length) byte comparisons (strings eight bytes to a step), plus O(k²) key comparisons
 * for an object of k keys and one comparison of each key with each noted key; the bytes are copied
 * into a per-thread scratch array, and nothing else is allocated but the layout and its parts. Not
 * reentrant within a thread (nothing it calls scans again).
 */
final class MessageScanner {

  /** Deeper nesting is not scanned (re-encoded instead): the scan recurses once per level. */
  static final int MAX_DEPTH = 64;

  /** Keys of the objects open at once beyond which a message is re-encoded instead. */
  static final int MAX_KEYS = 256;

  private static final byte[] ID = {'i', 'd'};
  private static final byte[] METHOD = {'m', 'e', 't', 'h', 'o', 'd'};
  private static final byte[] RESULT = {'r', 'e', 's', 'u', 'l', 't'};
  private static final byte[] ERROR = {'e', 'r', 'r', 'o', 'r'};
  private static final byte[] IS_ERROR = {'i', 's', 'E', 'r', 'r', 'o', 'r'};
  private static final byte[] CODE = {'c', 'o', 'd', 'e'};

  /**
   * Jackson's default {@code StreamReadConstraints.maxNumberLength}: a longer number fails its
   * parse.
   */
  private static final int MAX_NUMBER_LENGTH = 1000;

  /** Which object's keys the scan is reading: its role decides which keys it notes. */
  private static final int OTHER = 0;

  private static final int RESULT_OBJECT = 1;
  private static final int ERROR_OBJECT = 2;

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  /**
   * Where a message's edits go, as byte offsets.
   *
   * @param idStart where the top-level id's value starts
   * @param idEnd just past it
   * @param lineBreaks whether a CR or LF is among the bytes (only whitespace can hold one: strings
   *     with control characters are not scanned)
   * @param nonAscii whether a string holds a byte over 0x7F (the scan does not check UTF-8)
   * @param answerParts where the answer's parts are
   * @param notedKeySeen whether some object, at any depth, has one of the keys the scan was given
   */
  record Layout(
      int idStart,
      int idEnd,
      boolean lineBreaks,
      boolean nonAscii,
      AnswerParts answerParts,
      boolean notedKeySeen) {}

  /**
   * Where the parts of an answer that classify it are, as byte offsets (-1: absent).
   *
   * @param method whether the message has a top-level {@code method}
   * @param result where the top-level result's value starts
   * @param error where the top-level error's value starts
   * @param isErrorStart where {@code result.isError}'s value starts
   * @param isErrorEnd just past it
   * @param codeStart where {@code error.code}'s value starts
   * @param codeEnd just past it
   */
  record AnswerParts(
      boolean method,
      int result,
      int error,
      int isErrorStart,
      int isErrorEnd,
      int codeStart,
      int codeEnd) {}

  private static final class Scratch {
    final int[] keyStart = new int[MAX_KEYS];
    final int[] keyEnd = new int[MAX_KEYS];
  }

  private final byte[] b;
  private final int n;
  private final byte[][] notedKeys;
  private boolean notedKeySeen;
  private final int[] keyStart;
  private final int[] keyEnd;
  private int pos;
  private int keys;
  private int idStart = -1;
  private int idEnd = -1;
  private boolean lineBreaks;
  private boolean nonAscii;
  private boolean method;
  private int result = -1;
  private int error = -1;
  private int isErrorStart = -1;
  private int isErrorEnd = -1;
  private int codeStart = -1;
  private int codeEnd = -1;

  private MessageScanner(byte[] bytes, int length, Scratch scratch, byte[][] notedKeys) {
    this.b = bytes;
    this.n = length;
    this.notedKeys = notedKeys;
    this.keyStart = scratch.keyStart;
    this.keyEnd = scratch.keyEnd;
  }

  /** The layout of an answer, or null where it must be re-encoded (or parsed). */
  static Layout scan(Buffer message) {
    return scan(message, null);
  }

  /**
   * The layout of an answer, or null where it must be re-encoded (or parsed).
   *
   * @param notedKeys keys (plain ASCII) whose presence in any object the layout tells; may be null
   */
  static Layout scan(Buffer message, byte[][] notedKeys) {
    MessageScanner scanner =
        new MessageScanner(ByteWords.copyOf(message), message.length(), SCRATCH.get(), notedKeys);
    if (!scanner.message()) {
      return null;
    }
    AnswerParts answer =
        new AnswerParts(
            scanner.method,
            scanner.result,
            scanner.error,
            scanner.isErrorStart,
            scanner.isErrorEnd,
            scanner.codeStart,
            scanner.codeEnd);
    return new Layout(
        scanner.idStart,
        scanner.idEnd,
        scanner.lineBreaks,
        scanner.nonAscii,
        answer,
        scanner.notedKeySeen);
  }

  private boolean message() {
    whitespace();
    if (!at('{') || !object(1, OTHER)) {
      return false;
    }
    whitespace();
    return pos == n && idStart >= 0;
  }

  /** At a value of the given depth (the message itself is depth 1). */
  private boolean value(int depth) {
    if (pos >= n) {
      return false;
    }
    return switch (b[pos]) {
      case '{' -> object(depth, OTHER);
      case '[' -> array(depth);
      case '"' -> string();
      default -> scalar();
    };
  }

  private boolean object(int depth, int role) {
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
      if (notedKeys != null && !notedKeySeen) {
        note(start, end);
      }
      whitespace();
      if (!at(':')) {
        return false;
      }
      pos++;
      whitespace();
      if (!member(depth, role, start, end)) {
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

  /** At the value of the key {@code [start, end)} of an object of the given depth and role. */
  private boolean member(int depth, int role, int start, int end) {
    int valueStart = pos;
    if (depth == 1 && is(start, end, ID)) {
      if (at('{') || at('[')) {
        return false;
      }
      idStart = valueStart;
      boolean scanned = value(depth + 1);
      idEnd = pos;
      return scanned;
    }
    if (depth == 1) {
      if (is(start, end, RESULT)) {
        result = valueStart;
        return at('{') ? object(depth + 1, RESULT_OBJECT) : value(depth + 1);
      }
      if (is(start, end, ERROR)) {
        error = valueStart;
        return at('{') ? object(depth + 1, ERROR_OBJECT) : value(depth + 1);
      }
      method |= is(start, end, METHOD);
    }
    boolean scanned = value(depth + 1);
    if (role == RESULT_OBJECT && is(start, end, IS_ERROR)) {
      isErrorStart = valueStart;
      isErrorEnd = pos;
    } else if (role == ERROR_OBJECT && is(start, end, CODE)) {
      codeStart = valueStart;
      codeEnd = pos;
    }
    return scanned;
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
      while (pos + Long.BYTES <= n && plain(ByteWords.word(b, pos))) {
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
        if (!escape()) {
          return false;
        }
      } else if (c < 0x20) {
        return false;
      } else {
        nonAscii |= c >= 0x80;
        pos++;
      }
    }
  }

  /** At a backslash in a string: past the escape, if it is one of JSON's. */
  private boolean escape() {
    if (pos + 1 >= n) {
      return false;
    }
    switch (b[pos + 1]) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
        pos += 2;
        return true;
      }
      case 'u' -> {
        if (pos + 6 > n) {
          return false;
        }
        for (int i = pos + 2; i < pos + 6; i++) {
          if (Character.digit(b[i], 16) < 0) {
            return false;
          }
        }
        pos += 6;
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  /**
   * Whether each of a word's eight bytes is plain ASCII, neither a quote, a backslash nor a control
   * character: for each, {@code (v - 0x01..) & ~v & 0x80..} is non-zero exactly when some byte of
   * {@code v} is zero (and {@code (w - 0x20..) & ~w & 0x80..} when some byte of {@code w} is below
   * 0x20), and a byte over 0x7F has its high bit set already.
   */
  private static boolean plain(long word) {
    long quote = word ^ 0x2222222222222222L;
    long backslash = word ^ 0x5C5C5C5C5C5C5C5CL;
    long found =
        ByteWords.zeroBytes(quote)
            | ByteWords.zeroBytes(backslash)
            | ((word - 0x2020202020202020L) & ~word)
            | word;
    return (found & ByteWords.HIGH_BITS) == 0;
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

  /**
   * JSON's number grammar over {@code [start, pos)}: {@code -? (0 | [1-9]\d*) (.\d+)?
   * ([eE][+-]?\d+)?}.
   */
  private boolean number(int start) {
    if (pos - start > MAX_NUMBER_LENGTH) {
      return false;
    }
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

  /**
   * Keeps the key {@code [start, end)} of the object whose keys begin at {@code base}; false if it
   * has it already.
   */
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

  private void note(int start, int end) {
    for (byte[] key : notedKeys) {
      if (is(start, end, key)) {
        notedKeySeen = true;
        return;
      }
    }
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
