package dev.toolgate.policy.validation;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/**
 * Enforces the bounds the model's record components carry as schema annotations ({@link Required},
 * {@link Size}, {@link Min}, {@link Max}, {@link Pattern}), the same the CRD's OpenAPI schema is
 * generated from: a policy in a sidecar's file is held to exactly what the API server holds a
 * ToolPolicy to. Annotations on a list's element type bound each element.
 */
public final class SchemaBounds {

  private static final int QUOTED_LENGTH = 80;

  private SchemaBounds() {}

  /** Every bound the model's annotations set and the policy breaks, by path. */
  public static List<Violation> check(Record policy) {
    List<Violation> out = new ArrayList<>();
    record(policy, "", out);
    return out;
  }

  private static void record(Record value, String at, List<Violation> out) {
    for (RecordComponent component : value.getClass().getRecordComponents()) {
      String path = at.isEmpty() ? name(component) : at + "." + name(component);
      Object field = read(component, value);
      value(field, component.getAccessor(), path, out);
      if (field instanceof List<?> list
          && component.getAnnotatedType() instanceof AnnotatedParameterizedType type) {
        AnnotatedElement element = type.getAnnotatedActualTypeArguments()[0];
        for (int i = 0; i < list.size(); i++) {
          value(list.get(i), element, path + "[" + i + "]", out);
        }
      }
    }
  }

  private static void value(
      Object value, AnnotatedElement bounds, String path, List<Violation> out) {
    if (value == null) {
      if (bounds.isAnnotationPresent(Required.class)) {
        out.add(new Violation(path, "is required"));
      }
      return;
    }
    Size size = bounds.getAnnotation(Size.class);
    if (size != null) {
      size(value, size, path, out);
    }
    if (value instanceof Number number) {
      range(number, bounds.getAnnotation(Min.class), bounds.getAnnotation(Max.class), path, out);
    }
    Pattern pattern = bounds.getAnnotation(Pattern.class);
    if (pattern != null
        && value instanceof String s
        && !java.util.regex.Pattern.compile(pattern.value()).matcher(s).find()) {
      out.add(new Violation(path, "must match " + pattern.value() + ", was " + quoted(s)));
    }
    if (value instanceof Record nested) {
      record(nested, path, out);
    }
  }

  private static void size(Object value, Size size, String path, List<Violation> out) {
    if (value instanceof String s) {
      int length = s.codePointCount(0, s.length());
      if (length < size.min() || length > size.max()) {
        out.add(
            new Violation(
                path,
                "must be "
                    + between(size)
                    + " characters long, was "
                    + length
                    + " ("
                    + quoted(s)
                    + ")"));
      }
    } else if (value instanceof List<?> list
        && (list.size() < size.min() || list.size() > size.max())) {
      out.add(new Violation(path, "must hold " + between(size) + " items, was " + list.size()));
    }
  }

  private static String between(Size size) {
    return size.min() > 0 ? size.min() + " to " + size.max() : "at most " + size.max();
  }

  private static void range(Number number, Min min, Max max, String path, List<Violation> out) {
    double v = number.doubleValue();
    boolean low = min != null && (min.inclusive() ? v < min.value() : v <= min.value());
    boolean high = max != null && (max.inclusive() ? v > max.value() : v >= max.value());
    if (low || high) {
      out.add(new Violation(path, "must be in " + interval(min, max) + ", was " + number));
    }
  }

  private static String interval(Min min, Max max) {
    String lower = min == null ? "(-inf" : (min.inclusive() ? "[" : "(") + plain(min.value());
    String upper = max == null ? "+inf)" : plain(max.value()) + (max.inclusive() ? "]" : ")");
    return lower + ", " + upper;
  }

  private static String plain(double bound) {
    return bound == Math.rint(bound) ? Long.toString((long) bound) : Double.toString(bound);
  }

  private static String name(RecordComponent component) {
    JsonProperty renamed = component.getAccessor().getAnnotation(JsonProperty.class);
    return renamed != null && !renamed.value().isEmpty() ? renamed.value() : component.getName();
  }

  private static Object read(RecordComponent component, Record value) {
    try {
      return component.getAccessor().invoke(value);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read " + component, e);
    }
  }

  private static String quoted(String s) {
    String shown = s.contains("://") ? Redacted.url(s) : s;
    return "'"
        + (shown.length() > QUOTED_LENGTH ? shown.substring(0, QUOTED_LENGTH) + "…" : shown)
        + "'";
  }
}
