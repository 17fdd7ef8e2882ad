package dev.toolgate.sidecar.mcp;

import io.vertx.core.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random JSON messages for property tests: the keys a JSON-RPC message has, and text that trips a
 * byte scanner.
 */
final class RandomJson {

  private RandomJson() {}

  static Map<String, Object> object(Random random, int depth) {
    Map<String, Object> map = new LinkedHashMap<>();
    int size = random.nextInt(depth > 2 ? 2 : 5);
    for (int i = 0; i < size; i++) {
      String key =
          switch (random.nextInt(8)) {
            case 0, 1 -> List.of("id", "params", "_meta", "name", "result").get(random.nextInt(5));
            case 2 -> string(random);
            default -> "k" + random.nextInt(20);
          };
      map.put(key, value(random, depth + 1));
    }
    return map;
  }

  static Object value(Random random, int depth) {
    int kind = random.nextInt(depth > 3 ? 5 : 7);
    return switch (kind) {
      case 0 -> string(random);
      case 1 -> random.nextLong();
      case 2 -> random.nextDouble() * 1e6;
      case 3 -> random.nextBoolean();
      case 4 -> null;
      case 5 -> object(random, depth);
      default -> {
        List<Object> list = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          list.add(value(random, depth + 1));
        }
        yield list;
      }
    };
  }

  /** Text with what trips a byte scanner: quotes, backslashes, keys in text, non-ASCII. */
  static String string(Random random) {
    String[] pieces = {
      "a", "id", "\"", "\\", "\"id\":", "}", ",", " ", "é", "日本", "😀", "\n", "\u0001", "tg-x-a1"
    };
    StringBuilder s = new StringBuilder();
    for (int i = random.nextInt(6); i > 0; i--) {
      s.append(pieces[random.nextInt(pieces.length)]);
    }
    return s.toString();
  }

  /** JSON with random whitespace between the tokens. */
  @SuppressWarnings("unchecked")
  static String write(Object value, Random random) {
    String space = List.of("", "", " ", "\n", "\t ").get(random.nextInt(5));
    if (value instanceof Map<?, ?> map) {
      StringBuilder s = new StringBuilder("{" + space);
      int i = 0;
      for (Map.Entry<String, Object> e : ((Map<String, Object>) map).entrySet()) {
        s.append(i++ == 0 ? "" : "," + space)
            .append(Json.encode(e.getKey()))
            .append(space)
            .append(':')
            .append(space)
            .append(write(e.getValue(), random));
      }
      return s.append(space).append('}').toString();
    }
    if (value instanceof List<?> list) {
      StringBuilder s = new StringBuilder("[" + space);
      for (int i = 0; i < list.size(); i++) {
        s.append(i == 0 ? "" : "," + space).append(write(list.get(i), random));
      }
      return s.append(space).append(']').toString();
    }
    return Json.encode(value);
  }
}
