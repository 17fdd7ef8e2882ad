package dev.toolgate.sidecar.mcp;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * A JSON-RPC response read without being parsed: one pass over its bytes ({@link MessageScanner})
 * finds its id and what classifies it — an error and its code, or a result and its {@code isError}
 * — and the same layout then splices the agent's id in ({@link MessageSplice}).
 *
 * <p>{@link #of} declines (returns null, and the caller parses the message) wherever a parse could
 * read the bytes otherwise or fail on them: whatever the splice declines, a string with a byte over
 * 0x7F (its UTF-8 is not checked here), a message with a top-level {@code method}, one with neither
 * result nor error, an id with an escape, an error that is not an object or whose code is not a
 * whole number of {@code int}'s range, a result that is neither an object nor null, an {@code
 * isError} that is neither true nor false. So where it answers, it answers what {@code
 * JsonRpc.isResponse} and the classification of the parsed message would.
 *
 * <p>Cost: the scan's O(length) (no value built), plus a comparison of each key with each noted
 * key; nothing else is allocated but this object and the scan's layout.
 */
public final class ScannedAnswer {

  /** What the answer says of the call. */
  public enum Kind {
    /** A result without {@code isError: true} (or a null result). */
    RESULT,
    /** A result with {@code isError: true}: the tool ran and failed. */
    TOOL_ERROR,
    /** A JSON-RPC error, with its {@link #errorCode()}. */
    RPC_ERROR
  }

  private final Buffer bytes;
  private final MessageScanner.Layout layout;
  private final Kind kind;
  private final int errorCode;

  private ScannedAnswer(Buffer bytes, MessageScanner.Layout layout, Kind kind, int errorCode) {
    this.bytes = bytes;
    this.layout = layout;
    this.kind = kind;
    this.errorCode = errorCode;
  }

  /**
   * Keys (plain ASCII) an answer's scan notes wherever they are: made once, given to every scan.
   */
  public static final class Keys {
    private final byte[][] names;

    private Keys(byte[][] names) {
      this.names = names;
    }
  }

  public static Keys keys(String... names) {
    byte[][] bytes = new byte[names.length][];
    for (int i = 0; i < names.length; i++) {
      bytes[i] = names[i].getBytes(StandardCharsets.US_ASCII);
    }
    return new Keys(bytes);
  }

  /** The response in {@code bytes}, or null where it must be parsed instead. */
  public static ScannedAnswer of(Buffer bytes) {
    return of(bytes, null);
  }

  /**
   * The response in {@code bytes}, or null where it must be parsed instead.
   *
   * @param noted keys whose presence {@link #hasNotedKey()} tells; may be null
   */
  public static ScannedAnswer of(Buffer bytes, Keys noted) {
    MessageScanner.Layout layout = MessageScanner.scan(bytes, noted == null ? null : noted.names);
    if (layout == null || layout.nonAscii()) {
      return null;
    }
    MessageScanner.AnswerParts parts = layout.answerParts();
    if (parts.method()
        || (parts.result() < 0 && parts.error() < 0)
        || contains(bytes, layout.idStart(), layout.idEnd(), '\\')) {
      return null;
    }
    if (parts.error() >= 0) {
      if (bytes.getByte(parts.error()) != '{') {
        return null;
      }
      long code =
          parts.codeStart() < 0 ? 0 : wholeNumber(bytes, parts.codeStart(), parts.codeEnd());
      return code == Long.MIN_VALUE
          ? null
          : new ScannedAnswer(bytes, layout, Kind.RPC_ERROR, (int) code);
    }
    byte first = bytes.getByte(parts.result());
    if (first == 'n') {
      return new ScannedAnswer(bytes, layout, Kind.RESULT, 0);
    }
    if (first != '{') {
      return null;
    }
    if (parts.isErrorStart() < 0) {
      return new ScannedAnswer(bytes, layout, Kind.RESULT, 0);
    }
    return switch (bytes.getByte(parts.isErrorStart())) {
      case 't' -> new ScannedAnswer(bytes, layout, Kind.TOOL_ERROR, 0);
      case 'f' -> new ScannedAnswer(bytes, layout, Kind.RESULT, 0);
      default -> null;
    };
  }

  /** Whether the top-level id is the string {@code id}, which must be plain ASCII. */
  public boolean idIs(String id) {
    int start = layout.idStart();
    if (layout.idEnd() - start != id.length() + 2 || bytes.getByte(start) != '"') {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      if (bytes.getByte(start + 1 + i) != id.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  public Kind kind() {
    return kind;
  }

  /** The error's code (0 when it gives none); 0 unless {@link #kind()} is RPC_ERROR. */
  public int errorCode() {
    return errorCode;
  }

  /** Whether the result is an object (a null result is not). */
  public boolean hasResult() {
    int result = layout.answerParts().result();
    return result >= 0 && bytes.getByte(result) == '{';
  }

  /** Whether some object of the answer, at any depth, has one of the keys {@link #of} was given. */
  public boolean hasNotedKey() {
    return layout.notedKeySeen();
  }

  public Buffer bytes() {
    return bytes;
  }

  /** The answer with its id set to {@code id}. */
  public Buffer withId(Object id) {
    return MessageSplice.withId(bytes, layout, id);
  }

  /**
   * The answer with its id set to {@code id}, as one event; null when a line break would split it.
   */
  public Buffer eventWithId(Object id) {
    return layout.lineBreaks() ? null : MessageSplice.eventWithId(bytes, layout, id);
  }

  private static boolean contains(Buffer bytes, int start, int end, char c) {
    for (int i = start; i < end; i++) {
      if (bytes.getByte(i) == c) {
        return true;
      }
    }
    return false;
  }

  /**
   * A whole number within int's range written as JSON does (the scan checked its grammar), else
   * Long.MIN_VALUE.
   */
  private static long wholeNumber(Buffer bytes, int start, int end) {
    int i = start;
    boolean negative = bytes.getByte(i) == '-';
    if (negative) {
      i++;
    }
    if (end - i > 10) {
      return Long.MIN_VALUE;
    }
    long value = 0;
    for (; i < end; i++) {
      byte c = bytes.getByte(i);
      if (c < '0' || c > '9') {
        return Long.MIN_VALUE;
      }
      value = value * 10 + (c - '0');
    }
    value = negative ? -value : value;
    return value < Integer.MIN_VALUE || value > Integer.MAX_VALUE ? Long.MIN_VALUE : value;
  }
}
