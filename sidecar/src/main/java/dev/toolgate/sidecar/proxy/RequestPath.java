package dev.toolgate.sidecar.proxy;

import java.util.Locale;

/**
 * Whether a request path is one the sidecar relays as written: no dot segments, no empty segment,
 * no encoded dot, slash or backslash, nothing an upstream could resolve to another path than the
 * one the sidecar checked.
 */
final class RequestPath {

  private RequestPath() {}

  /** Why {@code rawPath} is refused, or null when it is plain. */
  static String problem(String rawPath) {
    if (rawPath == null || !rawPath.startsWith("/")) {
      return "the path must start with '/'";
    }
    String lower = rawPath.toLowerCase(Locale.ROOT);
    if (lower.contains("%2e") || lower.contains("%2f") || lower.contains("%5c")) {
      return "the path holds an encoded '.', '/' or '\\'; send it as plain text";
    }
    if (rawPath.indexOf('\\') >= 0) {
      return "the path holds a '\\'";
    }
    String[] segments = rawPath.substring(1).split("/", -1);
    for (int i = 0; i < segments.length; i++) {
      String segment = segments[i];
      if (segment.equals(".") || segment.equals("..")) {
        return "the path holds a '" + segment + "' segment; send it resolved";
      }
      if (segment.isEmpty() && i < segments.length - 1) {
        return "the path holds an empty segment ('//')";
      }
    }
    return null;
  }
}
