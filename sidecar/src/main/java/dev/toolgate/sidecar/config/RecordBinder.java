package dev.toolgate.sidecar.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.toolgate.policy.config.WireNames;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Binds a YAML node tree to the configuration's records: one descent over the tree, led by the
 * target type. A mapping becomes a record through its canonical constructor (an absent field is
 * {@code null}, or zero for a primitive, and the record's constructor applies its defaults), a
 * sequence a {@code List}, a scalar text, a whole number, a number, a boolean or an enum constant
 * by its wire name ({@link WireNames}). Unknown and repeated fields are refused; so are numbers for
 * enums and fractions for whole numbers.
 *
 * <p>Every refusal names the node's path ({@code tools[0].retry.maxAttempts}) and the bad value; a
 * record constructor's own refusal is reported at the record's path with its message. Cost:
 * reflection per field, once per load of the file (start and each reload), never on a call.
 */
final class RecordBinder {

  /** A node that does not fit its type; the message names its path and value. */
  static final class BindingException extends Exception {
    private static final long serialVersionUID = 1L;

    BindingException(String message) {
      super(message);
    }
  }

  private static final Pattern WHOLE = Pattern.compile("[-+]?[0-9]+");
  private static final Pattern DECIMAL =
      Pattern.compile("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?");

  private RecordBinder() {}

  /**
   * How the file is read: YAML 1.2's core schema, where {@code ~}, {@code null} and an empty value
   * are null (the only scalars the binder reads by their tag); {@code label} names the file.
   */
  static LoadSettings settings(String label) {
    return LoadSettings.builder().setLabel(label).setSchema(new CoreSchema()).build();
  }

  static <T extends Record> T bind(Node node, Class<T> type) throws BindingException {
    return type.cast(value(node, type, ""));
  }

  private static Object value(Node node, Type type, String path) throws BindingException {
    Class<?> raw = raw(type);
    if (isNull(node)) {
      if (raw.isPrimitive()) {
        throw new BindingException(
            at(path) + "expected " + kind(raw) + ", found null" + location(node));
      }
      return null;
    }
    if (raw == List.class) {
      return list(node, ((ParameterizedType) type).getActualTypeArguments()[0], path);
    }
    if (raw.isRecord()) {
      return record(node, raw, path);
    }
    if (!(node instanceof ScalarNode scalar)) {
      throw new BindingException(
          at(path) + "expected " + kind(raw) + ", found " + found(node) + location(node));
    }
    String text = scalar.getValue();
    if (raw == String.class) {
      return text;
    }
    if (raw.isEnum()) {
      return constant(raw, text, path);
    }
    if (raw == Boolean.class || raw == boolean.class) {
      if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
        return Boolean.valueOf(text);
      }
      throw invalid(text, "boolean", path);
    }
    if (raw == Double.class || raw == double.class) {
      if (DECIMAL.matcher(text).matches()) {
        return Double.valueOf(text);
      }
      throw invalid(text, "number", path);
    }
    if (raw == Integer.class || raw == int.class || raw == Long.class || raw == long.class) {
      try {
        if (WHOLE.matcher(text).matches()) {
          return raw == Integer.class || raw == int.class
              ? (Object) Integer.valueOf(text)
              : (Object) Long.valueOf(text);
        }
      } catch (NumberFormatException outOfRange) {
        // reported below, like any other value that is not a whole number of the type
      }
      throw invalid(text, "whole number", path);
    }
    throw new IllegalStateException(
        "the configuration has a field of a type the file cannot hold: " + type + " at " + path);
  }

  private static List<Object> list(Node node, Type element, String path) throws BindingException {
    if (!(node instanceof SequenceNode sequence)) {
      throw new BindingException(
          at(path) + "expected a list, found " + found(node) + location(node));
    }
    List<Object> values = new ArrayList<>(sequence.getValue().size());
    for (Node item : sequence.getValue()) {
      values.add(value(item, element, path + "[" + values.size() + "]"));
    }
    return values;
  }

  private static Object record(Node node, Class<?> type, String path) throws BindingException {
    if (!(node instanceof MappingNode mapping)) {
      throw new BindingException(
          at(path) + "expected a mapping of fields, found " + found(node) + location(node));
    }
    RecordComponent[] components = type.getRecordComponents();
    Map<String, Integer> index = new LinkedHashMap<>();
    for (int i = 0; i < components.length; i++) {
      index.put(WireNames.of(components[i]), i);
    }
    Object[] args = new Object[components.length];
    boolean[] given = new boolean[components.length];
    for (NodeTuple field : mapping.getValue()) {
      String name = field.getKeyNode() instanceof ScalarNode key ? key.getValue() : null;
      Integer i = name == null ? null : index.get(name);
      if (i == null) {
        throw new BindingException(
            (path.isEmpty() ? "" : path + ": ")
                + "unknown field '"
                + (name == null ? found(field.getKeyNode()) : name)
                + "'; known fields: "
                + new TreeSet<>(index.keySet()));
      }
      if (given[i]) {
        throw new BindingException(
            at(path) + "field '" + name + "' is given twice" + location(field.getKeyNode()));
      }
      given[i] = true;
      args[i] =
          value(
              field.getValueNode(),
              components[i].getGenericType(),
              path.isEmpty() ? name : path + "." + name);
    }
    for (int i = 0; i < components.length; i++) {
      if (args[i] == null && components[i].getType().isPrimitive()) {
        args[i] = zero(components[i].getType());
      }
    }
    Class<?>[] types =
        Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
    try {
      Constructor<?> canonical = type.getDeclaredConstructor(types);
      canonical.trySetAccessible();
      return canonical.newInstance(args);
    } catch (InvocationTargetException e) {
      throw refused(e.getCause(), path);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "the record " + type.getName() + " cannot be built from its components", e);
    }
  }

  private static Object constant(Class<?> type, String text, String path) throws BindingException {
    for (Method method : type.getMethods()) {
      if (method.isAnnotationPresent(JsonCreator.class)
          && Modifier.isStatic(method.getModifiers())
          && method.getParameterCount() == 1
          && method.getParameterTypes()[0] == String.class) {
        try {
          return method.invoke(null, text);
        } catch (InvocationTargetException e) {
          throw refused(e.getCause(), path);
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(
              type.getName() + "." + method.getName() + " is not callable", e);
        }
      }
    }
    for (Object constant : type.getEnumConstants()) {
      if (WireNames.of((Enum<?>) constant).equals(text)) {
        return constant;
      }
    }
    throw new BindingException(
        at(path)
            + "'"
            + text
            + "' is not a valid "
            + type.getSimpleName()
            + "; accepted: "
            + Arrays.stream(type.getEnumConstants())
                .map(c -> WireNames.of((Enum<?>) c))
                .collect(Collectors.joining(", ")));
  }

  private static BindingException refused(Throwable cause, String path) {
    if (cause instanceof RuntimeException) {
      return new BindingException(
          at(path) + (cause.getMessage() == null ? cause.toString() : cause.getMessage()));
    }
    throw new IllegalStateException("a configuration record failed unexpectedly at " + path, cause);
  }

  private static BindingException invalid(String text, String typeName, String path) {
    return new BindingException(at(path) + "'" + text + "' is not a valid " + typeName);
  }

  private static boolean isNull(Node node) {
    return node instanceof ScalarNode && Tag.NULL.equals(node.getTag());
  }

  private static Class<?> raw(Type type) {
    return type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
  }

  private static Object zero(Class<?> primitive) {
    if (primitive == boolean.class) {
      return false;
    }
    if (primitive == int.class) {
      return 0;
    }
    if (primitive == long.class) {
      return 0L;
    }
    if (primitive == double.class) {
      return 0.0;
    }
    throw new IllegalStateException("the configuration has a primitive field of type " + primitive);
  }

  private static String kind(Class<?> type) {
    if (type == Boolean.class || type == boolean.class) {
      return "a boolean";
    }
    if (type == Double.class || type == double.class) {
      return "a number";
    }
    if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
      return "a whole number";
    }
    if (type.isEnum()) {
      return "one of "
          + Arrays.stream(type.getEnumConstants())
              .map(c -> WireNames.of((Enum<?>) c))
              .collect(Collectors.joining(", "));
    }
    return "text";
  }

  private static String found(Node node) {
    if (node instanceof MappingNode) {
      return "a mapping";
    }
    if (node instanceof SequenceNode) {
      return "a list";
    }
    return "'" + ((ScalarNode) node).getValue() + "'";
  }

  private static String at(String path) {
    return (path.isEmpty() ? "(top level)" : path) + ": ";
  }

  private static String location(Node node) {
    return location(node.getStartMark());
  }

  /** Where in the file, counted from 1 as editors do; snakeyaml counts from 0. */
  static String location(Optional<Mark> mark) {
    return mark.map(m -> " (line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1) + ")")
        .orElse("");
  }
}
