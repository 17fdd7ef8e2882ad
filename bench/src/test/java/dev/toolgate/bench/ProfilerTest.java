package dev.toolgate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfilerTest {

  @TempDir Path work;

  @Test
  void refusesAnEventItDoesNotOfferNamingIt() {
    assertThatThrownBy(() -> Profiler.of("itimer", work))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--profile must be one of alloc, cpu, lock, wall, was 'itimer'");
    assertThat(work).isEmptyDirectory();
  }

  @Test
  void attachesTheExtractedAgentWithTheFlameGraphNamedAfterTheTarget() throws Exception {
    Profiler profiler = Profiler.of("alloc", work);

    Path library = work.resolve("profiler/libasyncProfiler.so");
    assertThat(library).isRegularFile();
    assertThat(Files.size(library)).isPositive();
    assertThat(profiler.flameGraph("full policy (before)"))
        .isEqualTo(work.resolve("profiles/full-policy-before-.html"));
    assertThat(profiler.flags("full policy (before)"))
        .containsExactly(
            "-agentpath:"
                + library
                + "=start,event=alloc,alloc=512k,file="
                + work.resolve("profiles/full-policy-before-.html"));
  }
}
