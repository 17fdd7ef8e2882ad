package dev.toolgate.sidecar.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.policy.config.AdminOptions;
import dev.toolgate.policy.config.ListenAddress;
import dev.toolgate.policy.config.RuntimeOptions;
import dev.toolgate.policy.config.SidecarConfig;
import dev.toolgate.policy.model.Effect;
import dev.toolgate.policy.model.Fallback;
import dev.toolgate.policy.outcome.ResultClass;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

  private static final Instant NOW = Instant.parse("2026-11-30T08:00:00Z");
  private final ConfigLoader loader =
      new ConfigLoader(Clock.fixed(NOW, ZoneOffset.UTC), ConfigTrust.unsignedFileAllowed(null));

  private static final String MINIMAL =
      """
      upstreams:
        - {name: api, url: "http://127.0.0.1:8080/mcp"}
      """;

  private LoadedConfig parse(String yaml) throws ConfigException {
    return loader.parse(ConfigOrigin.FILE, "test.yaml", yaml.getBytes(StandardCharsets.UTF_8));
  }

  private ConfigException failure(String yaml) {
    try {
      parse(yaml);
    } catch (ConfigException e) {
      return e;
    }
    throw new AssertionError("expected the configuration to be refused");
  }

  @TempDir Path dir;

  @Test
  void theWorkloadGivenAtAdmissionReplacesTheAgentIdOfEveryDocument() throws Exception {
    byte[] yaml = (MINIMAL + "agent: {id: shared-by-everyone}\n").getBytes(StandardCharsets.UTF_8);

    assertThat(
            loader
                .withAgent("agents/Deployment/ops-assistant")
                .parse(ConfigOrigin.FILE, "test.yaml", yaml)
                .config()
                .agent()
                .id())
        .isEqualTo("agents/Deployment/ops-assistant");
    assertThat(
            loader
                .withAgent(null)
                .parse(ConfigOrigin.FILE, "test.yaml", yaml)
                .config()
                .agent()
                .id())
        .isEqualTo("shared-by-everyone");
  }

  @Test
  void loadsTheDemoConfigurationWithSeed000sPolicy() throws Exception {
    Path copy = dir.resolve("sidecar.yaml");
    Files.copy(Path.of("../e2e/demo/sidecar.yaml"), copy);
    dev.toolgate.sidecar.support.SidecarFixture.writeApprovalKey(dir);

    LoadedConfig loaded = loader.load(copy);

    var policy = loaded.config().policy();
    assertThat(loaded.config().revision()).isEqualTo(1);
    assertThat(loaded.config().listen().port()).isEqualTo(17000);
    assertThat(policy.budget().backendMs()).isEqualTo(7000);
    var get = policy.rule("deployment-api", "get_deployment_job");
    assertThat(get.retry().retryOn())
        .containsExactly(
            ResultClass.TRANSPORT_UNAVAILABLE, ResultClass.BACKEND_429, ResultClass.BACKEND_503);
    assertThat(get.breaker().fallback()).isEqualTo(Fallback.READ_ONLY_DEGRADED_RESPONSE);
    assertThat(policy.rule("deployment-api", "restart_deployment_job").effect())
        .isEqualTo(Effect.IDEMPOTENT_WRITE);
    assertThat(loaded.hash()).hasSize(64);
    assertThat(loaded.loadedAt()).isEqualTo(NOW);
    assertThat(loaded.config().approvals().publicKeysFile())
        .isEqualTo(dir.resolve("target/approval-keys.json").toString());
    assertThat(loaded.approvalTokens()).isNotNull();
  }

  @Test
  void loadsTheConfigurationTheOperatorRenders() throws Exception {
    Path copy = dir.resolve("rendered.yaml");
    Files.copy(
        Path.of("../operator/src/test/resources/golden/deployment-tools.sidecar.yaml"), copy);
    Files.writeString(
        dir.resolve("approval-keys.json"),
        dev.toolgate.sidecar.support.SidecarFixture.APPROVER.publicKeys().toJson());

    LoadedConfig loaded = loader.load(copy);

    assertThat(loaded.config().revision()).isEqualTo(7);
    assertThat(loaded.config().agent().id()).isEqualTo("ops-assistant-prod");
    assertThat(loaded.config().sharedState().kubernetesServiceDns())
        .isEqualTo("toolgate-hazelcast.toolgate.svc");
    assertThat(loaded.config().policy().tools()).hasSize(4);
    assertThat(
            loaded
                .config()
                .policy()
                .rule("deployment-api", "get_deployment_job")
                .breaker()
                .fallback())
        .isEqualTo(Fallback.READ_ONLY_DEGRADED_RESPONSE);
  }

  @Test
  void refusesAnApprovedToolWithoutPublicKeysAndASharedSecretOrAPrivateKeyInTheirPlace()
      throws Exception {
    String approved =
        MINIMAL
            + "tools:\n  - {name: w, upstream: api, effect: idempotent_write,"
            + " approval: human_required}\n";
    assertThat(failure(approved).problems())
        .containsExactly(
            "tools[0].approval: human_required needs approvals.publicKeysFile, the approvers'"
                + " public keys that verify approval tokens");

    Path hmac = Files.writeString(dir.resolve("hmac.key"), "a-shared-secret-0123456789abcdef");
    assertThat(failure(approved + "approvals: {publicKeysFile: " + hmac + "}\n").problems())
        .singleElement()
        .asString()
        .startsWith("approvals.publicKeysFile: not a JWK set");
    Path leaked =
        Files.writeString(
            dir.resolve("private.json"),
            "{\"keys\":["
                + dev.toolgate.sidecar.support.SidecarFixture.APPROVER.toPrivateJson()
                + "]}");
    assertThat(failure(approved + "approvals: {publicKeysFile: " + leaked + "}\n").problems())
        .singleElement()
        .asString()
        .contains("a sidecar must be given public keys only");
  }

  @Test
  void appliesLoopbackAndDefaultPortsWhenListenIsAbsent() throws Exception {
    SidecarConfig config = parse(MINIMAL).config();

    assertThat(config.listen()).isEqualTo(new ListenAddress("127.0.0.1", 17000));
    assertThat(config.admin()).isEqualTo(new AdminOptions("127.0.0.1", 17020, null));
    assertThat(config.runtime().maxBodyBytes()).isEqualTo(RuntimeOptions.DEFAULT_MAX_BODY_BYTES);
  }

  @Test
  void refusesHeldBytesThatCannotHoldTwiceTheLargestBodyAndNamesTheValue() {
    ConfigException e =
        failure(
            MINIMAL
                + "runtime: {maxBodyBytes: 65536, maxAnswerBytes: 1000, maxHeldBytes: 100000}\n");

    assertThat(e.getMessage())
        .contains("runtime.maxHeldBytes: must be at least twice")
        .contains("so 131072, was 100000")
        .contains("runtime.maxAnswerBytes: must be >= 1024, was 1000");
  }

  @Test
  void resolvesTheNotificationFilesAgainstTheConfigurationsDirectory() throws Exception {
    String source = dir.resolve("etc/sidecar.yaml").toString();
    SidecarConfig config =
        loader
            .parse(
                ConfigOrigin.FILE,
                source,
                (MINIMAL
                        + "quotas: {notify: {webhookUrl: \"https://hooks.example/q\","
                        + " secretFile: notify.secret, caFile: /etc/ssl/ca.pem}}\n")
                    .getBytes(StandardCharsets.UTF_8))
            .config();

    assertThat(config.policy().quotas().notification().secretFile())
        .isEqualTo(dir.resolve("etc/notify.secret").toString());
    assertThat(config.policy().quotas().notification().caFile())
        .as("absolute paths stay")
        .isEqualTo("/etc/ssl/ca.pem");
    assertThat(config.policy().quotas().notification().webhookUrl())
        .isEqualTo("https://hooks.example/q");
  }

  @Test
  void namesAnUnknownFieldItsParentAndTheKnownFields() {
    ConfigException e =
        failure(MINIMAL + "tools:\n  - {name: t, upstream: api, retyr: {maxAttempts: 2}}\n");

    assertThat(e.problems())
        .singleElement()
        .asString()
        .startsWith(
            "tools[0]: unknown field 'retyr'; known fields: [approval, breaker, breakerGroup, effect,");
  }

  @Test
  void refusesAFieldGivenTwiceRatherThanKeepingTheLastOne() {
    ConfigException e =
        failure(MINIMAL + "killSwitch: {blockWrites: true}\nkillSwitch: {blockWrites: false}\n");

    assertThat(e.problems())
        .containsExactly("(top level): field 'killSwitch' is given twice (line 4, column 1)");
  }

  @Test
  void listsTheAcceptedValuesOfABadEnum() {
    ConfigException e = failure(MINIMAL + "tools:\n  - {name: t, upstream: api, effect: write}\n");

    assertThat(e.problems())
        .containsExactly(
            "tools[0].effect: 'write' is not a valid Effect; accepted: read_only, expensive_read,"
                + " idempotent_write, non_idempotent_write");
  }

  @Test
  void namesABadNumberAndItsField() {
    ConfigException e = failure(MINIMAL + "budget: {backendMs: soon}\n");

    assertThat(e.problems())
        .containsExactly("budget.backendMs: 'soon' is not a valid whole number");
  }

  @Test
  void refusesANegativeWarmupNamingTheValue() {
    ConfigException e = failure(MINIMAL + "runtime: {warmupCalls: -1}\n");

    assertThat(e.problems())
        .containsExactly("runtime.warmupCalls: must be between 0 (off) and 100000, was -1");
  }

  @Test
  void warmsUpWithAThousandCallsUnlessTurnedOff() throws Exception {
    assertThat(parse(MINIMAL).config().runtime().warmupCalls()).isEqualTo(1000);
    assertThat(parse(MINIMAL + "runtime: {warmupCalls: 0}\n").config().runtime().warmupCalls())
        .isZero();
  }

  @Test
  void refusesAnUnknownRetryClassNamingIt() {
    ConfigException e =
        failure(
            MINIMAL
                + "tools:\n  - {name: t, upstream: api, effect: read_only,"
                + " retry: {maxAttempts: 2, retryOn: [backend_418]}}\n");

    assertThat(e.problems())
        .singleElement()
        .asString()
        .startsWith("tools[0].retry.retryOn[0]: unknown result class 'backend_418'");
  }

  @Test
  void reportsEveryPolicyViolationAtOnce() {
    ConfigException e =
        failure(MINIMAL + "budget: {transportMs: 5000, backendMs: 6000}\nlisten: {port: 70000}\n");

    assertThat(e.problems())
        .containsExactly(
            "budget.backendMs: an inner timeout must expire before the outer one:"
                + " budget.backendMs (6000) must be < budget.transportMs (5000)",
            "listen.port: must be in [0, 65535], was 70000");
    assertThat(e.getMessage()).startsWith("test.yaml: ");
  }

  @Test
  void pointsAtTheLineOfAYamlSyntaxError() {
    ConfigException e = failure("upstreams:\n  - name: api\n   url: [unclosed\n");

    assertThat(e.problems()).singleElement().asString().startsWith("not valid YAML (line ");
  }

  @Test
  void refusesAnEmptyFileAndAScalar() {
    assertThat(failure("  \n").problems()).containsExactly("the file is empty");
    assertThat(failure("just text").problems())
        .containsExactly("the file must be a YAML mapping of fields");
  }

  @Test
  void givesTheSameHashToTheSameBytes() throws Exception {
    assertThat(parse(MINIMAL).hash()).isEqualTo(parse(MINIMAL).hash());
    assertThat(parse(MINIMAL).hash()).isNotEqualTo(parse(MINIMAL + "revision: 2\n").hash());
  }
}
