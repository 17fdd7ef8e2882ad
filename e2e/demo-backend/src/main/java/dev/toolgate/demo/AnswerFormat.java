package dev.toolgate.demo;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How the demo backend answers a {@code tools/call}. The MCP SDKs' Streamable HTTP servers (the
 * TypeScript, Kotlin, C# and Dart ones) answer on an SSE stream unless told to answer JSON; a call
 * with a {@code progressToken} is answered on a stream whatever the format.
 */
public enum AnswerFormat {
  /** One {@code application/json} body. */
  JSON,
  /**
   * A {@code text/event-stream}: a priming event at once, the answer as a message event, the end.
   */
  SSE;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The format named {@code name} ({@code json} or {@code sse}); the message lists both. */
  public static AnswerFormat of(String name) {
    for (AnswerFormat f : values()) {
      if (f.wireName().equals(name)) {
        return f;
      }
    }
    throw new IllegalArgumentException(
        "answer format must be one of "
            + Arrays.stream(values()).map(AnswerFormat::wireName).collect(Collectors.joining(", "))
            + ", was '"
            + name
            + "'");
  }
}
