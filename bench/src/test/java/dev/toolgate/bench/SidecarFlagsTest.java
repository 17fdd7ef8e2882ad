package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The extra JVM flags a profiling run gives each sidecar, {@code {name}} made the target's. */
class SidecarFlagsTest {

  @Test
  void namesEachTargetsFileWithoutASpaceOrACommaThatWouldSplitAnAgentsOptions() {
    String agent = "-agentpath:/tmp/lib.so=start,event=cpu,file=/tmp/prof-{name}.txt";

    assertThat(LoadBench.extraFlags(agent + " -Xlog:gc:file=/tmp/gc-{name}.log", "full, local"))
        .containsExactly(
            "-agentpath:/tmp/lib.so=start,event=cpu,file=/tmp/prof-full-local.txt",
            "-Xlog:gc:file=/tmp/gc-full-local.log");
    assertThat(LoadBench.extraFlags(agent, "full policy (base)").get(0))
        .endsWith("file=/tmp/prof-full-policy-base-.txt");
  }

  @Test
  void givesNoFlagsWhenNoneAreSet() {
    assertThat(LoadBench.extraFlags(" ", "full policy")).isEmpty();
  }
}
