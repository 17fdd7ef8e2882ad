package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The KiB per call the load table prints for a sidecar. */
class AllocatedPerCallTest {

  @Test
  void leavesOutTheScrapesBetweenTheFirstReadingAndTheLast() {
    // Ten slices of 1,000 calls, 25 KiB each, with three scrapes' work of 400 KiB each between the
    // readings.
    double counted = 10 * 1_000 * 25 * 1024 + 3 * 400 * 1024;

    assertThat(FixedRates.allocatedKibPerCall(counted, 3, 400 * 1024, 10_000))
        .isCloseTo(25, within(1e-9));
  }

  @Test
  void takesTheCountAsItIsWhereTheScrapeCouldNotBeMeasured() {
    // A build whose counter moves only at a young GC: nothing is left out.
    assertThat(FixedRates.allocatedKibPerCall(10 * 13_107 * 1024, 10, 0, 5_000))
        .isCloseTo(26.214, within(1e-9));
  }

  @Test
  void neverReadsBelowZero() {
    assertThat(FixedRates.allocatedKibPerCall(100 * 1024, 10, 400 * 1024, 1_000)).isZero();
  }
}
