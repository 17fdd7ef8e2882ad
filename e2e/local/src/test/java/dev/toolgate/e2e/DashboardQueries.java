package dev.toolgate.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The PromQL expressions of the Grafana dashboards shipped by the chart, checked against a scrape
 * of running sidecars: every Toolgate, JVM or process metric they query must be exported, and every
 * label they match or group by must be on it. Metrics from the kubelet and kube-state-metrics
 * cannot be scraped here; they must be among the few {@link #EXTERNAL} ones the platform dashboard
 * reads.
 */
final class DashboardQueries {

  static final Set<String> EXTERNAL =
      Set.of(
          "container_memory_working_set_bytes", "container_cpu_usage_seconds_total",
          "kube_statefulset_status_replicas_ready", "kube_statefulset_replicas");

  /** Labels Prometheus adds when it scrapes a pod (and the histogram bucket label). */
  static final Set<String> TARGET_LABELS =
      Set.of("namespace", "pod", "container", "statefulset", "le");

  private static final Pattern METRIC =
      Pattern.compile("\\b((?:toolgate|jvm|process|container|kube)_[a-z0-9_]+)\\b");
  private static final Pattern GROUPING = Pattern.compile("\\bby\\s*\\(([^)]*)\\)");
  private static final Pattern MATCHER =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(?:=~|!~|!=|=)\\s*\"");

  private final Map<String, String> expressions;

  private DashboardQueries(Map<String, String> expressions) {
    this.expressions = expressions;
  }

  static DashboardQueries load(Path dir) throws IOException {
    Map<String, String> expressions = new HashMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        JsonNode dashboard = LocalStack.JSON.readTree(file.toFile());
        for (JsonNode panel : dashboard.path("panels")) {
          for (JsonNode target : panel.path("targets")) {
            expressions.put(
                file.getFileName()
                    + " / "
                    + panel.path("title").asText()
                    + " / "
                    + target.path("refId").asText(),
                target.path("expr").asText());
          }
        }
      }
    }
    if (expressions.isEmpty()) {
      throw new IllegalStateException("no dashboard expression found in " + dir);
    }
    return new DashboardQueries(expressions);
  }

  int size() {
    return expressions.size();
  }

  /** What the dashboards query that the scrape does not have (empty when they agree). */
  List<String> check(String scrape) {
    Map<String, Set<String>> labelsByMetric = parse(scrape);
    List<String> problems = new ArrayList<>();
    expressions.forEach(
        (where, expr) -> {
          Set<String> metrics = new HashSet<>();
          Matcher m = METRIC.matcher(expr);
          while (m.find()) {
            metrics.add(m.group(1));
          }
          if (metrics.isEmpty()) {
            problems.add(where + ": queries no metric");
          }
          Set<String> available = new HashSet<>(TARGET_LABELS);
          for (String metric : metrics) {
            if (EXTERNAL.contains(metric)) {
              continue;
            }
            Set<String> labels = labelsByMetric.get(metric);
            if (labels == null) {
              problems.add(where + ": " + metric + " is not exported");
            } else {
              available.addAll(labels);
            }
          }
          if (metrics.stream().anyMatch(EXTERNAL::contains)) {
            return;
          }
          Set<String> used = new HashSet<>();
          Matcher g = GROUPING.matcher(expr);
          while (g.find()) {
            for (String label : g.group(1).split(",")) {
              used.add(label.strip());
            }
          }
          Matcher l = MATCHER.matcher(expr);
          while (l.find()) {
            used.add(l.group(1));
          }
          used.stream()
              .filter(label -> !available.contains(label))
              .sorted()
              .forEach(
                  label -> problems.add(where + ": label " + label + " is on none of " + metrics));
        });
    problems.sort(String::compareTo);
    return problems;
  }

  /** Metric name → the labels of its series, from the Prometheus text format. */
  static Map<String, Set<String>> parse(String scrape) {
    Map<String, Set<String>> labels = new HashMap<>();
    Pattern label = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"");
    for (String line : scrape.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.indexOf(' ');
      String name = line.substring(0, brace >= 0 && brace < space ? brace : space);
      Set<String> set = labels.computeIfAbsent(name, k -> new HashSet<>());
      if (brace >= 0 && brace < space) {
        Matcher m = label.matcher(line.substring(brace, line.lastIndexOf('}')));
        while (m.find()) {
          set.add(m.group(1));
        }
      }
    }
    return labels;
  }
}
