package dev.toolgate.sidecar.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.config.SharedStateOptions;
import dev.toolgate.sidecar.config.ConfigLoader;
import dev.toolgate.sidecar.config.ConfigTrust;
import dev.toolgate.sidecar.config.LoadedConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WarmupTest {

  private static final String STUB = "http://127.0.0.1:4444/mcp";

  @TempDir Path dir;

  private LoadedConfig load(String yaml) throws Exception {
    Files.writeString(dir.resolve("notify.secret"), "webhook-secret-0123456789abcdef");
    Path file = dir.resolve("sidecar.yaml");
    Files.writeString(file, yaml);
    return new ConfigLoader(Clock.systemUTC(), ConfigTrust.unsignedFileAllowed(null)).load(file);
  }

  private static final String CONFIG =
      """
      sharedState: {mode: client, members: ["10.0.0.1:5701"]}
      upstreams:
        - {name: api, url: "http://backend:8080/mcp"}
        - {name: other, url: "https://other.example/mcp"}
      quotas:
        perSession: {read: 5, write: 1}
        perAgent: {read: 10, write: 2}
        ratePerMinute: 3
        notify: {webhookUrl: "https://hooks.example/q", secretFile: notify.secret}
      tools:
        - {name: get_job, upstream: api, effect: read_only}
        - {name: list_jobs, upstream: other, effect: expensive_read}
        - {name: restart_job, upstream: api, effect: non_idempotent_write}
      """;

  @Test
  void pointsEveryUpstreamAtTheStubAndKeepsTheToolRules() throws Exception {
    LoadedConfig loaded = load(CONFIG);

    LoadedConfig warm = Warmup.stubbed(loaded, STUB);

    assertThat(warm.config().policy().upstreams())
        .extracting(u -> u.name() + "=" + u.url())
        .containsExactly("api=" + STUB, "other=" + STUB);
    assertThat(warm.config().policy().tools()).isEqualTo(loaded.config().policy().tools());
    assertThat(warm.config().policy().budget()).isEqualTo(loaded.config().policy().budget());
  }

  @Test
  void liftsTheQuotasDropsTheWebhookAndKeepsTheStateLocal() throws Exception {
    LoadedConfig warm = Warmup.stubbed(load(CONFIG), STUB);

    var quotas = warm.config().policy().quotas();
    assertThat(quotas.perSession().read()).isEqualTo(Integer.MAX_VALUE);
    assertThat(quotas.perAgent().write()).isEqualTo(Integer.MAX_VALUE);
    assertThat(quotas.ratePerMinute()).isEqualTo(Integer.MAX_VALUE);
    assertThat(quotas.notification()).isNull();
    assertThat(warm.config().sharedState().mode()).isEqualTo(SharedStateOptions.Mode.LOCAL);
  }

  @Test
  void callsTheReadToolsOnTheirUpstreamsAndNeverAWrite() throws Exception {
    assertThat(Warmup.targets(load(CONFIG).config().policy()))
        .containsExactly(
            new WarmupClient.Target("api", "get_job"),
            new WarmupClient.Target("other", "list_jobs"));
  }

  @Test
  void callsThePassThroughToolWhenNoReadToolIsConfigured() throws Exception {
    LoadedConfig writesOnly =
        load(
            """
        upstreams:
          - {name: api, url: "http://backend:8080/mcp"}
        tools:
          - {name: restart_job, upstream: api, effect: idempotent_write}
        """);

    assertThat(Warmup.targets(writesOnly.config().policy()))
        .containsExactly(new WarmupClient.Target("api", Warmup.PASS_THROUGH_TOOL));
  }
}
