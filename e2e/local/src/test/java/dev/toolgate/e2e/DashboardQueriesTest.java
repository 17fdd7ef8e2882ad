package dev.toolgate.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DashboardQueriesTest {

  @TempDir Path dir;

  private DashboardQueries dashboard(String expr) throws Exception {
    Files.writeString(
        dir.resolve("d.json"),
        """
        {"panels": [{"title": "p", "targets": [{"refId": "A", "expr": %s}]}]}
        """
            .formatted(LocalStack.JSON.writeValueAsString(expr)));
    return DashboardQueries.load(dir);
  }

  private static final String SCRAPE =
      """
      # HELP toolgate_calls_total Tool calls
      # TYPE toolgate_calls_total counter
      toolgate_calls_total{result="success",tool="t",upstream="u"} 3.0
      jvm_threads_live_threads 12.0
      """;

  @Test
  void acceptsAQueryOnExportedMetricsAndLabels() throws Exception {
    assertThat(
            dashboard("sum by (result, pod) (rate(toolgate_calls_total{tool=~\"$tool\"}[5m]))")
                .check(SCRAPE))
        .isEmpty();
  }

  @Test
  void reportsAMetricTheSidecarDoesNotExport() throws Exception {
    assertThat(dashboard("rate(toolgate_call_total[5m])").check(SCRAPE))
        .containsExactly("d.json / p / A: toolgate_call_total is not exported");
  }

  @Test
  void reportsALabelNoneOfTheQueriedMetricsCarries() throws Exception {
    assertThat(dashboard("sum by (reason) (rate(toolgate_calls_total[5m]))").check(SCRAPE))
        .singleElement()
        .asString()
        .contains("label reason is on none of");
  }

  @Test
  void acceptsOnlyTheKnownClusterMetrics() throws Exception {
    assertThat(
            dashboard("max(container_memory_working_set_bytes{container=\"toolgate-sidecar\"})")
                .check(SCRAPE))
        .isEmpty();
    assertThat(dashboard("max(kube_pod_info)").check(SCRAPE))
        .singleElement()
        .asString()
        .contains("kube_pod_info is not exported");
  }
}
