package dev.toolgate.sidecar.config;

import dev.toolgate.policy.config.SidecarConfig;
import dev.toolgate.policy.config.WireNames;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.List;

/**
 * A configuration as JSON, with the file's names ({@link WireNames}): each record a JSON object of
 * its components in declaration order, absent values as {@code null}, enum constants by their wire
 * names. What {@link RecordBinder} reads, this writes, so the admin endpoint shows the file's
 * shape.
 */
public final class ConfigJson {

  private ConfigJson() {}

  public static JsonObject of(SidecarConfig config) {
    return (JsonObject) json(config);
  }

  private static Object json(Object value) {
    if (value instanceof Record record) {
      JsonObject object = new JsonObject();
      for (RecordComponent component : record.getClass().getRecordComponents()) {
        object.put(WireNames.of(component), json(read(record, component)));
      }
      return object;
    }
    if (value instanceof List<?> list) {
      JsonArray array = new JsonArray();
      list.forEach(item -> array.add(json(item)));
      return array;
    }
    if (value instanceof Enum<?> constant) {
      return WireNames.of(constant);
    }
    return value;
  }

  private static Object read(Record record, RecordComponent component) {
    try {
      return component.getAccessor().invoke(record);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException(
          "cannot read " + record.getClass().getName() + "." + component.getName(), e);
    }
  }
}
