package dev.toolgate.policy.json;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** RFC 6901 JSON pointers over parsed JSON (maps and lists). */
public final class JsonPointer {

  private JsonPointer() {}

  /** The value at {@code pointer} ("/a/0/b"); empty when any step is missing. */
  public static Optional<Object> resolve(Object root, String pointer) {
    if (pointer.isEmpty()) {
      return Optional.ofNullable(root);
    }
    if (!pointer.startsWith("/")) {
      throw new IllegalArgumentException("a JSON pointer starts with '/', was '" + pointer + "'");
    }
    Object current = root;
    for (String raw : pointer.substring(1).split("/", -1)) {
      String token = raw.replace("~1", "/").replace("~0", "~");
      if (current instanceof Map<?, ?> map) {
        current = map.get(token);
      } else if (current instanceof List<?> list) {
        try {
          int index = Integer.parseInt(token);
          current = index >= 0 && index < list.size() ? list.get(index) : null;
        } catch (NumberFormatException e) {
          return Optional.empty();
        }
      } else {
        return Optional.empty();
      }
      if (current == null) {
        return Optional.empty();
      }
    }
    return Optional.of(current);
  }
}
