package dev.toolgate.operator.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class OperatorMetricsTest {

  @Test
  void theScrapeNamesEveryMetricTheDashboardReadsWithoutAPolicyOrPodLabel() {
    OperatorMetrics metrics = OperatorMetrics.prometheus();
    metrics.reconciled(OperatorMetrics.APPLIED, Duration.ofMillis(12));
    metrics.reconciled(OperatorMetrics.ERROR, Duration.ofMillis(3));
    metrics.reviewed("injected", Duration.ofMillis(4));
    metrics.publicationFailed();
    metrics.queueDepth(() -> 3);
    metrics.leading(() -> true);
    metrics.certificateSecondsLeft(() -> 3600);

    String scrape = metrics.scrape();

    assertThat(scrape)
        .contains("toolgate_operator_reconcile_seconds_count{result=\"applied\"} 1")
        .contains("toolgate_operator_reconcile_seconds_count{result=\"error\"} 1")
        .contains("toolgate_operator_webhook_review_seconds_bucket{result=\"injected\"")
        .contains("toolgate_operator_publication_failures_total 1")
        .contains("toolgate_operator_queue_depth 3")
        .contains("toolgate_operator_leader 1")
        .contains("toolgate_operator_webhook_certificate_seconds_left 3600");
    assertThat(scrape).doesNotContain("policy=").doesNotContain("pod=");
  }
}
