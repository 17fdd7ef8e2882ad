package dev.toolgate.policy.json;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A canonical text of JSON values (maps, lists, strings, numbers, booleans, null as parsed by any
 * JSON library): object keys sorted, no white space. Two argument objects that mean the same give
 * the same text, so hashes of it identify intents and bind approvals. O(size).
 */
public final class CanonicalJson {

  private CanonicalJson() {}

  public static String of(Object value) {
    StringBuilder out = new StringBuilder(256);
    write(value, out);
    return out.toString();
  }

  /** Appends the canonical text of {@code value} to {@code out} (no intermediate string). */
  public static void appendTo(Object value, StringBuilder out) {
    write(value, out);
  }

  private static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Map<?, ?> map) {
      TreeMap<String, Object> sorted = new TreeMap<>();
      map.forEach((k, v) -> sorted.put(String.valueOf(k), v));
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, Object> e : sorted.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        string(e.getKey(), out);
        out.append(':');
        write(e.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(list.get(i), out);
      }
      out.append(']');
    } else if (value instanceof String s) {
      string(s, out);
    } else if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (d == Math.rint(d) && Math.abs(d) < 1e15) {
        out.append((long) d);
      } else {
        out.append(d);
      }
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else {
      string(value.toString(), out);
    }
  }

  private static void string(String s, StringBuilder out) {
    out.append('"');
    int plain = 0;
    while (plain < s.length()
        && s.charAt(plain) >= 0x20
        && s.charAt(plain) != '"'
        && s.charAt(plain) != '\\') {
      plain++;
    }
    // Most argument strings need no escape: copy the plain prefix in one go.
    out.append(s, 0, plain);
    for (int i = plain; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
