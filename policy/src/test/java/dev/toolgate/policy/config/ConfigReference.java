package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.toolgate.policy.model.Policy;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The configuration reference, written from the model: every field of the sidecar's file and of the
 * {@code ToolPolicy} spec, with its type, its default (what the record's canonical constructor puts
 * in place of an absent value) and its description ({@code @JsonPropertyDescription}, which the CRD
 * carries too).
 */
final class ConfigReference {

  private static final String INTRO =
      """
      # Configuration reference

      Generated from the model (`policy/src/main/java/dev/toolgate/policy/`) by `ConfigReference`;
      do not edit: `ConfigReferenceIsCurrentTest` fails when this page is stale. Regenerate with
      `./mvnw -pl policy test -Dtest=ConfigReferenceIsCurrentTest -Dtoolgate.regenerate=true`.

      The sidecar reads one YAML file: the sidecar's own fields below, and the policy's fields at
      the top level beside them. A `ToolPolicy`'s `spec` holds the policy's fields only; the operator
      renders the file from it (`toolgate-operator render`). Durations carry their unit in their
      name. Unknown fields and fields given twice are refused, and every rule the validator applies
      names the field and the bad value. A default applies when the field is absent; an object's
      fields take their defaults when the object is given without them.

      """;

  private final StringBuilder out = new StringBuilder();

  private ConfigReference() {}

  static String markdown() {
    ConfigReference reference = new ConfigReference();
    reference.out.append(INTRO);
    reference.section("The sidecar's own fields", SidecarConfig.class, false);
    reference.section("The policy (the `ToolPolicy` spec)", Policy.class, true);
    return reference.out.toString();
  }

  private void section(String title, Class<? extends Record> type, boolean policy) {
    out.append("## ").append(title).append("\n\n");
    out.append("| Field | Type | Default | Description |\n| --- | --- | --- | --- |\n");
    Record defaults = allAbsent(type);
    for (RecordComponent component : type.getRecordComponents()) {
      if (!policy && component.getAccessor().isAnnotationPresent(JsonUnwrapped.class)) {
        continue;
      }
      rows("", component, defaults);
    }
    out.append('\n');
  }

  private void rows(String prefix, RecordComponent component, Record parentDefaults) {
    String path = prefix + WireNames.of(component);
    Object value = parentDefaults == null ? null : read(parentDefaults, component);
    Class<?> raw = component.getType();
    Class<?> element = elementType(component);
    row(path, typeName(raw, element), defaultText(value), description(component));
    if (raw.isRecord()) {
      Record nested =
          value instanceof Record given ? given : allAbsent(raw.asSubclass(Record.class));
      for (RecordComponent child : raw.getRecordComponents()) {
        rows(path + ".", child, nested);
      }
    } else if (element != null && element.isRecord()) {
      Record each = allAbsent(element.asSubclass(Record.class));
      for (RecordComponent child : element.getRecordComponents()) {
        rows(path + "[].", child, each);
      }
    }
  }

  private void row(String path, String type, String defaultValue, String description) {
    out.append("| `")
        .append(path)
        .append("` | ")
        .append(type)
        .append(" | ")
        .append(defaultValue)
        .append(" | ")
        .append(description.replace("|", "\\|"))
        .append(" |\n");
  }

  private static String description(RecordComponent component) {
    JsonPropertyDescription description =
        component.getAccessor().getAnnotation(JsonPropertyDescription.class);
    if (description == null) {
      throw new IllegalStateException(
          component.getDeclaringRecord().getSimpleName()
              + "."
              + component.getName()
              + " has no @JsonPropertyDescription: every field of the configuration is documented");
    }
    return description.value();
  }

  private static String typeName(Class<?> raw, Class<?> element) {
    if (element != null) {
      return element.isRecord()
          ? "list of objects"
          : element.isEnum() ? "list of names" : "list of " + typeName(element, null) + "s";
    }
    if (raw.isRecord()) {
      return "object";
    }
    if (raw.isEnum()) {
      return Arrays.stream(raw.getEnumConstants())
          .map(c -> "`" + WireNames.of((Enum<?>) c) + "`")
          .collect(Collectors.joining(" \\| "));
    }
    if (raw == String.class) {
      return "string";
    }
    if (raw == Integer.class || raw == int.class || raw == Long.class || raw == long.class) {
      return "integer";
    }
    if (raw == Double.class || raw == double.class) {
      return "number";
    }
    if (raw == Boolean.class || raw == boolean.class) {
      return "boolean";
    }
    throw new IllegalStateException("no reference name for " + raw.getName());
  }

  private static String defaultText(Object value) {
    if (value == null || value instanceof Record) {
      return value == null ? "—" : "";
    }
    if (value instanceof List<?> list) {
      return list.isEmpty()
          ? "`[]`"
          : "`"
              + list.stream()
                  .map(ConfigReference::plain)
                  .collect(Collectors.joining(", ", "[", "]"))
              + "`";
    }
    return "`" + plain(value) + "`";
  }

  private static String plain(Object value) {
    return value instanceof Enum<?> constant ? WireNames.of(constant) : String.valueOf(value);
  }

  private static Class<?> elementType(RecordComponent component) {
    if (component.getType() != List.class) {
      return null;
    }
    Type argument = ((ParameterizedType) component.getGenericType()).getActualTypeArguments()[0];
    return (Class<?>) argument;
  }

  /**
   * The record as the file gives it when every field is absent: nulls, and zeros for primitives.
   */
  private static Record allAbsent(Class<? extends Record> type) {
    RecordComponent[] components = type.getRecordComponents();
    Class<?>[] types =
        Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
    Object[] absent = Arrays.stream(types).map(ConfigReference::absent).toArray();
    try {
      Constructor<? extends Record> canonical = type.getDeclaredConstructor(types);
      return canonical.newInstance(absent);
    } catch (InvocationTargetException e) {
      return null; // a record that needs a field (an upstream's name) has no defaults to show
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build " + type.getName(), e);
    }
  }

  private static Object absent(Class<?> type) {
    if (!type.isPrimitive()) {
      return null;
    }
    if (type == boolean.class) {
      return false;
    }
    if (type == long.class) {
      return 0L;
    }
    if (type == double.class) {
      return 0.0;
    }
    return 0;
  }

  private static Object read(Record record, RecordComponent component) {
    try {
      return component.getAccessor().invoke(record);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read " + component, e);
    }
  }
}
