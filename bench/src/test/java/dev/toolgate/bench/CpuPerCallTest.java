package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The CPU per call the one-call-at-a-time table prints for a proxy. */
class CpuPerCallTest {

  @Test
  void dividesTheProxysCpuTimeOverItsTurnsByTheCallsAnsweredInThem() {
    // Ten turns of ~780 calls, 0.95 s of CPU in all: 122 µs a call.
    assertThat(OneCallAtATime.cpuMicrosPerCall(0.95, 7_800)).isCloseTo(121.79, within(0.01));
  }

  @Test
  void readsTheWholeCpuTimeWhereNoCallWasAnswered() {
    assertThat(OneCallAtATime.cpuMicrosPerCall(0.002, 0)).isCloseTo(2_000, within(1e-9));
  }
}
