package dev.toolgate.policy.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;

/**
 * The names the configuration file gives to record components and enum constants. The model states
 * them once with Jackson's annotations (the operator's CRD binding reads the same ones):
 * {@code @JsonProperty} renames a component or a constant, {@code @JsonValue} names an enum's
 * accessor of its wire name; without either the Java name is the file's.
 */
public final class WireNames {

  private WireNames() {}

  public static String of(RecordComponent component) {
    JsonProperty renamed = component.getAccessor().getAnnotation(JsonProperty.class);
    return renamed != null && !renamed.value().isEmpty() ? renamed.value() : component.getName();
  }

  public static String of(Enum<?> constant) {
    Class<?> type = constant.getDeclaringClass();
    for (Method method : type.getMethods()) {
      if (method.isAnnotationPresent(JsonValue.class) && method.getParameterCount() == 0) {
        try {
          return String.valueOf(method.invoke(constant));
        } catch (IllegalAccessException | InvocationTargetException e) {
          throw new IllegalStateException(
              type.getName() + "." + method.getName() + " cannot name " + constant, e);
        }
      }
    }
    try {
      JsonProperty renamed = type.getField(constant.name()).getAnnotation(JsonProperty.class);
      return renamed != null ? renamed.value() : constant.name();
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException("an enum constant is a public field: " + constant, e);
    }
  }
}
