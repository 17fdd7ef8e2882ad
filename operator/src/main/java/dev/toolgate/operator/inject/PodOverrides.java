package dev.toolgate.operator.inject;

import dev.toolgate.policy.config.RuntimeOptions;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What one pod asks of its sidecar by annotation, checked: its resources, its warm-up and its log
 * level. The pod's author sets them when the pod is created; the agent changes nothing once it
 * runs. A value the injector cannot use is not used: the operator's default applies and the
 * admission answer warns, naming the annotation and the value (kubectl prints it). Pure.
 *
 * @param cpuRequest the sidecar's CPU request
 * @param memoryRequest its memory request
 * @param memoryLimit its memory limit
 * @param warmupCalls the warm-up's calls; null keeps the configuration's
 * @param logLevel the sidecar's log level; null keeps the image's (info)
 * @param warnings why an annotation was not used, one per annotation
 */
public record PodOverrides(
    String cpuRequest,
    String memoryRequest,
    String memoryLimit,
    Integer warmupCalls,
    String logLevel,
    List<String> warnings) {

  private static final Pattern CPU = Pattern.compile("^[0-9]{1,6}m$|^[0-9]{1,3}(\\.[0-9]{1,3})?$");
  private static final Pattern MEMORY = Pattern.compile("^[0-9]{1,6}(Ki|Mi|Gi)$");
  private static final Set<String> LEVELS = Set.of("trace", "debug", "info", "warn", "error");

  /** Below this the sidecar's JVM (a 64 MiB heap) cannot run. */
  static final Quantity MIN_MEMORY_LIMIT = new Quantity("128Mi");

  public PodOverrides {
    warnings = List.copyOf(warnings);
  }

  /** The overrides the annotations ask for, over the operator's defaults. */
  public static PodOverrides of(Map<String, String> annotations, InjectionOptions defaults) {
    List<String> warnings = new ArrayList<>();
    String cpu =
        checked(
            annotations,
            InjectionOptions.ANNOTATION_CPU_REQUEST,
            defaults.cpuRequest(),
            v -> CPU.matcher(v).matches(),
            "a CPU quantity such as 50m",
            warnings);
    String request =
        checked(
            annotations,
            InjectionOptions.ANNOTATION_MEMORY_REQUEST,
            defaults.memoryRequest(),
            v -> MEMORY.matcher(v).matches(),
            "a memory quantity such as 96Mi",
            warnings);
    String limit =
        checked(
            annotations,
            InjectionOptions.ANNOTATION_MEMORY_LIMIT,
            defaults.memoryLimit(),
            v -> MEMORY.matcher(v).matches() && bytes(v).compareTo(bytes(MIN_MEMORY_LIMIT)) >= 0,
            "a memory quantity of at least " + MIN_MEMORY_LIMIT,
            warnings);
    if (bytes(request).compareTo(bytes(limit)) > 0) {
      warnings.add(
          "the memory request "
              + request
              + " is above the limit "
              + limit
              + ": the request is the limit");
      request = limit;
    }
    String warmup =
        checked(
            annotations,
            InjectionOptions.ANNOTATION_WARMUP_CALLS,
            null,
            v ->
                v.matches("^[0-9]{1,6}$") && Integer.parseInt(v) <= RuntimeOptions.MAX_WARMUP_CALLS,
            "a whole number from 0 to " + RuntimeOptions.MAX_WARMUP_CALLS,
            warnings);
    String level =
        checked(
            annotations,
            InjectionOptions.ANNOTATION_LOG_LEVEL,
            null,
            LEVELS::contains,
            "one of " + LEVELS.stream().sorted().toList(),
            warnings);
    return new PodOverrides(
        cpu, request, limit, warmup == null ? null : Integer.valueOf(warmup), level, warnings);
  }

  private static String checked(
      Map<String, String> annotations,
      String annotation,
      String fallback,
      java.util.function.Predicate<String> valid,
      String expected,
      List<String> warnings) {
    String value = annotations.get(annotation);
    if (value == null) {
      return fallback;
    }
    String trimmed = value.strip();
    if (valid.test(trimmed)) {
      return trimmed;
    }
    String shown = trimmed.length() > 40 ? trimmed.substring(0, 40) + "…" : trimmed;
    warnings.add(
        annotation
            + " must be "
            + expected
            + ", was '"
            + shown
            + "'; "
            + (fallback == null ? "not used" : "the default " + fallback + " applies"));
    return fallback;
  }

  private static BigDecimal bytes(String quantity) {
    return bytes(new Quantity(quantity));
  }

  private static BigDecimal bytes(Quantity quantity) {
    return Quantity.getAmountInBytes(quantity);
  }
}
