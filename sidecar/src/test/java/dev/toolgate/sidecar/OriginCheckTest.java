package dev.toolgate.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.config.ListenAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class OriginCheckTest {

  private final OriginCheck byDefault = new OriginCheck(new ListenAddress("127.0.0.1", 17000));

  @Test
  void servesLoopbackHostsWithoutAnOriginWhateverThePort() {
    assertThat(byDefault.refusal(null, "127.0.0.1:17000")).isNull();
    assertThat(byDefault.refusal(null, "localhost")).isNull();
    assertThat(byDefault.refusal(null, "LOCALHOST:8080")).isNull();
    assertThat(byDefault.refusal(null, "[::1]:17000")).isNull();
  }

  @Test
  void refusesAnyOriginByDefaultAndAForeignOrMissingHost() {
    assertThat(byDefault.refusal("http://evil.example", "127.0.0.1:17000"))
        .contains("Origin 'http://evil.example' is not allowed");
    assertThat(byDefault.refusal("null", "127.0.0.1")).contains("Origin 'null'");
    assertThat(byDefault.refusal(null, "evil.example")).contains("Host 'evil.example'");
    assertThat(byDefault.refusal(null, "evil.example:17000")).contains("Host");
    assertThat(byDefault.refusal(null, null)).contains("Host (none)");
    assertThat(byDefault.refusal(null, "127.0.0.1.evil.example")).isNotNull();
  }

  @Test
  void servesTheConfiguredOriginsAndHostsAndTheListenersOwnAddress() {
    OriginCheck check =
        new OriginCheck(
            new ListenAddress(
                "10.0.0.7", 17000, List.of("https://console.example/"), List.of("agent.local")));

    assertThat(check.refusal("https://Console.Example", "agent.local:17000")).isNull();
    assertThat(check.refusal(null, "10.0.0.7:17000")).isNull();
    assertThat(check.refusal("https://other.example", "agent.local")).isNotNull();
  }

  @Test
  void showsAHostileValueShortAndPrintable() {
    String refusal = byDefault.refusal("http://x\u0000" + "a".repeat(500), "127.0.0.1");

    assertThat(refusal).doesNotContain("\u0000").hasSizeLessThan(300);
  }
}
