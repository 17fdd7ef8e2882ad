package dev.toolgate.operator.crd;

import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the API server's validation of a ToolPolicy against the committed CRD would answer, short of
 * a server: the schema's types, bounds, patterns, enums, required fields and list-map keys, then
 * every {@code x-kubernetes-validations} rule on each node present in the document, evaluated with
 * the CEL reference implementation ({@code dev.cel}). Each error is {@code path: message}, the path
 * being the rule's {@code fieldPath} when it has one.
 */
final class CrdAdmission {

  private static final CelCompiler COMPILER =
      CelCompilerFactory.standardCelCompilerBuilder()
          .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
          .addVar("self", SimpleType.DYN)
          .build();
  private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().build();
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private final JSONSchemaProps root;

  private CrdAdmission(JSONSchemaProps root) {
    this.root = root;
  }

  static CustomResourceDefinition committedCrd() throws IOException {
    return YAML.unmarshal(
        Files.readString(CrdIsCurrentTest.COMMITTED), CustomResourceDefinition.class);
  }

  static CrdAdmission ofCommittedCrd() throws IOException {
    return new CrdAdmission(
        committedCrd().getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema());
  }

  /** The errors the API server would answer for this ToolPolicy document; none if admitted. */
  List<String> errors(String document) {
    Object value = cel(YAML.unmarshal(document, Map.class));
    List<String> out = new ArrayList<>();
    validate(root, value, "", out);
    return out;
  }

  private void validate(JSONSchemaProps schema, Object value, String path, List<String> out) {
    int before = out.size();
    structure(schema, value, path, out);
    if (out.size() > before) {
      return;
    }
    if (value instanceof Map<?, ?> map && schema.getProperties() != null) {
      for (var property : schema.getProperties().entrySet()) {
        if (map.containsKey(property.getKey())) {
          validate(
              property.getValue(), map.get(property.getKey()), path + "." + property.getKey(), out);
        }
      }
    }
    if (value instanceof List<?> list && schema.getItems() != null) {
      for (int i = 0; i < list.size(); i++) {
        validate(schema.getItems().getSchema(), list.get(i), path + "[" + i + "]", out);
      }
    }
    if (schema.getXKubernetesValidations() != null) {
      for (ValidationRule rule : schema.getXKubernetesValidations()) {
        if (!holds(rule.getRule(), value)) {
          String at = rule.getFieldPath() == null ? path : path + rule.getFieldPath();
          out.add(at + ": " + rule.getMessage());
        }
      }
    }
  }

  /** The OpenAPI part: what the schema says of this one value, before any rule runs. */
  private static void structure(JSONSchemaProps s, Object value, String path, List<String> out) {
    String at = path.isEmpty() ? "<root>" : path;
    switch (s.getType() == null ? "object" : s.getType()) {
      case "object" -> {
        if (!(value instanceof Map<?, ?> map)) {
          out.add(at + ": must be an object");
          return;
        }
        if (!path.isEmpty() && s.getProperties() != null) {
          map.keySet().stream()
              .filter(k -> !s.getProperties().containsKey(k))
              .forEach(k -> out.add(at + "." + k + ": unknown field"));
        }
        if (s.getRequired() != null) {
          s.getRequired().stream()
              .filter(r -> !map.containsKey(r))
              .forEach(r -> out.add(at + "." + r + ": Required value"));
        }
      }
      case "array" -> {
        if (!(value instanceof List<?> list)) {
          out.add(at + ": must be an array");
          return;
        }
        if (s.getMaxItems() != null && list.size() > s.getMaxItems()) {
          out.add(at + ": must have at most " + s.getMaxItems() + " items");
        }
        if (s.getMinItems() != null && list.size() < s.getMinItems()) {
          out.add(at + ": should have at least " + s.getMinItems() + " items");
        }
        if ("map".equals(s.getXKubernetesListType())) {
          Set<List<Object>> keys = new HashSet<>();
          for (Object item : list) {
            List<Object> key = new ArrayList<>();
            s.getXKubernetesListMapKeys().forEach(k -> key.add(((Map<?, ?>) item).get(k)));
            if (!keys.add(key)) {
              out.add(at + ": Duplicate value: " + key);
            }
          }
        }
      }
      case "string" -> {
        if (!(value instanceof String text)) {
          out.add(at + ": must be a string");
          return;
        }
        int length = text.codePointCount(0, text.length());
        if (s.getMaxLength() != null && length > s.getMaxLength()) {
          out.add(at + ": may not be longer than " + s.getMaxLength());
        }
        if (s.getMinLength() != null && length < s.getMinLength()) {
          out.add(at + ": should be at least " + s.getMinLength() + " chars long");
        }
        if (s.getPattern() != null && !Pattern.compile(s.getPattern()).matcher(text).find()) {
          out.add(at + ": should match '" + s.getPattern() + "'");
        }
        if (s.getEnum() != null
            && !s.getEnum().isEmpty()
            && s.getEnum().stream()
                .noneMatch(e -> text.equals(YAML.convertValue(e, Object.class)))) {
          out.add(at + ": Unsupported value: \"" + text + "\"");
        }
      }
      case "integer", "number" -> {
        boolean integer = "integer".equals(s.getType());
        if (!(value instanceof Long) && (integer || !(value instanceof Double))) {
          out.add(at + ": must be " + (integer ? "an integer" : "a number"));
          return;
        }
        double v = ((Number) value).doubleValue();
        if (s.getMinimum() != null
            && (Boolean.TRUE.equals(s.getExclusiveMinimum())
                ? v <= s.getMinimum()
                : v < s.getMinimum())) {
          out.add(
              at
                  + ": should be greater than "
                  + (Boolean.TRUE.equals(s.getExclusiveMinimum()) ? "" : "or equal to ")
                  + s.getMinimum());
        }
        if (s.getMaximum() != null
            && (Boolean.TRUE.equals(s.getExclusiveMaximum())
                ? v >= s.getMaximum()
                : v > s.getMaximum())) {
          out.add(at + ": should be less than or equal to " + s.getMaximum());
        }
      }
      case "boolean" -> {
        if (!(value instanceof Boolean)) {
          out.add(at + ": must be a boolean");
        }
      }
      default -> out.add(at + ": unknown type " + s.getType());
    }
  }

  private static boolean holds(String rule, Object self) {
    try {
      return (Boolean)
          RUNTIME.createProgram(COMPILER.compile(rule).getAst()).eval(Map.of("self", self));
    } catch (Exception e) {
      throw new IllegalStateException("rule '" + rule + "' does not evaluate: " + e, e);
    }
  }

  /** CEL integers are 64-bit: JSON numbers become Long or Double. */
  private static Object cel(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put((String) k, cel(v)));
      return out;
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      list.forEach(v -> out.add(cel(v)));
      return out;
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      return ((Number) value).longValue();
    }
    if (value instanceof Float || value instanceof java.math.BigDecimal) {
      return ((Number) value).doubleValue();
    }
    return value;
  }
}
