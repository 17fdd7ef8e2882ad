package dev.toolgate.sidecar.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ToolgateMetricsTest {

  private static String line(String scrape, String prefix) {
    return scrape.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse("");
  }

  @Test
  void countsEachSeriesOnceRegisteredAndKeepsSeriesApartByTagValues() {
    ToolgateMetrics metrics = ToolgateMetrics.create();
    for (int i = 0; i < 3; i++) {
      metrics.call("api", "get", "success");
      metrics.attempt("api", "get", "success", 2_000_000);
    }
    metrics.call("api", "get", "timeout");

    String scrape = metrics.scrape();
    assertThat(line(scrape, "toolgate_calls_total{result=\"success\",tool=\"get\",upstream=\"api\"}")).endsWith(" 3.0");
    assertThat(line(scrape, "toolgate_calls_total{result=\"timeout\",tool=\"get\",upstream=\"api\"}")).endsWith(" 1.0");
    assertThat(line(scrape, "toolgate_attempt_duration_seconds_count{result=\"success\",tool=\"get\",upstream=\"api\"}"))
        .endsWith(" 3");
    assertThat(line(scrape, "toolgate_attempts_total{result=\"success\",tool=\"get\",upstream=\"api\"}")).endsWith(" 3.0");
  }
}
