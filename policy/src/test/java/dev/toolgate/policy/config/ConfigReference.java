package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.toolgate.policy.model.Policy;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The configuration reference, written from the model: every field of the sidecar's file and of the
 * {@code ToolPolicy} spec, with its type, its default (what the record's canonical constructor puts
 * in place of an absent value), its bounds (the schema annotations) and its description
 * ({@code @JsonPropertyDescription}); the CRD carries the same bounds and descriptions.
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

      A field's bounds hold for the sidecar's file and for a `ToolPolicy` alike: the API server
      refuses a `ToolPolicy` past them at `kubectl apply` (they are the CRD's schema), and the
      validator refuses a file past them. The CRD also carries the validator's rules across fields
      (nested budgets, a retried write needs a lookup, a tool names one of the upstreams, ...) as
      CEL rules, each refusal naming its field.

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
    out.append(
        "| Field | Type | Default | Bounds | Description |\n| --- | --- | --- | --- | --- |\n");
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
    row(
        path,
        typeName(raw, element),
        defaultText(value),
        bounds(component),
        description(component));
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

  private void row(
      String path, String type, String defaultValue, String bounds, String description) {
    out.append("| `")
        .append(path)
        .append("` | ")
        .append(type)
        .append(" | ")
        .append(defaultValue)
        .append(" | ")
        .append(bounds.replace("|", "\\|"))
        .append(" | ")
        .append(description.replace("|", "\\|"))
        .append(" |\n");
  }

  /** The bounds the schema annotations set, which SchemaBounds and the CRD both enforce. */
  private static String bounds(RecordComponent component) {
    List<String> parts = new ArrayList<>();
    AnnotatedElement field = component.getAccessor();
    if (field.isAnnotationPresent(Required.class)) {
      parts.add("required");
    }
    parts.addAll(bounds(field, component.getType() == List.class ? "items" : "characters"));
    if (component.getAnnotatedType() instanceof AnnotatedParameterizedType list) {
      List<String> each = bounds(list.getAnnotatedActualTypeArguments()[0], "characters");
      if (!each.isEmpty()) {
        parts.add("each " + String.join(", ", each));
      }
    }
    return String.join("; ", parts);
  }

  private static List<String> bounds(AnnotatedElement element, String unit) {
    List<String> parts = new ArrayList<>();
    Size size = element.getAnnotation(Size.class);
    if (size != null) {
      parts.add(
          (size.min() > 0 ? size.min() + " to " + size.max() : "at most " + size.max())
              + " "
              + unit);
    }
    Min min = element.getAnnotation(Min.class);
    Max max = element.getAnnotation(Max.class);
    if (min != null || max != null) {
      parts.add(
          (min == null ? "(-inf" : (min.inclusive() ? "[" : "(") + number(min.value()))
              + ", "
              + (max == null ? "+inf)" : number(max.value()) + (max.inclusive() ? "]" : ")")));
    }
    Pattern pattern = element.getAnnotation(Pattern.class);
    if (pattern != null) {
      parts.add("matches `" + pattern.value() + "`");
    }
    return parts;
  }

  private static String number(double value) {
    return value == Math.rint(value) ? String.format("%,d", (long) value) : Double.toString(value);
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
