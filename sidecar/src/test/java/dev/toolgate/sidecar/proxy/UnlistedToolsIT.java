package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.demo.Fault;
import dev.toolgate.sidecar.evidence.AttemptEvent;
import dev.toolgate.sidecar.support.SidecarFixture;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tool the policy does not name, tried by an agent through the official MCP Java SDK: under
 * {@code unlistedTools: deny} it is neither offered nor served; under {@code allow} it never has
 * fewer protections than the policy's named writes, whatever new name the agent tries.
 */
class UnlistedToolsIT {

  private static final String API = "deployment-api";
  private static final String V2 = "get_deployment_job_v2";

  @TempDir Path dir;
  private SidecarFixture f;
  private McpSyncClient client;

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (f != null) {
      f.close();
    }
  }

  private void start(String extraYaml) throws Exception {
    f = SidecarFixture.start(dir, Map.of(), extraYaml);
    URI sidecar = URI.create(f.url(API));
    client =
        McpClient.sync(
                HttpClientStreamableHttpTransport.builder("http://" + sidecar.getAuthority())
                    .endpoint(sidecar.getPath())
                    .build())
            .requestTimeout(Duration.ofSeconds(15))
            .build();
    client.initialize();
  }

  private McpSchema.CallToolResult call(String tool) {
    return client.callTool(
        McpSchema.CallToolRequest.builder().name(tool).arguments(Map.of("job_id", "j1")).build());
  }

  @SuppressWarnings("unchecked")
  private static String code(McpSchema.CallToolResult result) {
    if (!Boolean.TRUE.equals(result.isError())) {
      return "ok";
    }
    Map<String, Object> structured = (Map<String, Object>) result.structuredContent();
    return String.valueOf(((Map<String, Object>) structured.get("toolgate")).get("code"));
  }

  @Test
  void underDenyAnUnlistedToolIsLeftOutOfTheListAndRefusedBeforeAnyUpstream() throws Exception {
    start("unlistedTools: deny\ndefaults: {}\n");

    var offered = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
    McpSchema.CallToolResult refused = call(V2);

    assertThat(offered).contains("get_deployment_job", "restart_deployment_job").doesNotContain(V2);
    assertThat(code(refused)).isEqualTo("policy_denied");
    assertThat(((McpSchema.TextContent) refused.content().get(0)).text())
        .contains("does not name tool '" + V2 + "'", "unlistedTools: deny");
    assertThat(f.backend.ledger().callsReceived(V2)).as("no upstream reached").isZero();
    AttemptEvent event = f.events.first(V2);
    assertThat(event.decision()).isEqualTo("denied:policy_denied");
    assertThat(event.attempt()).isZero();
    assertThat(code(call("get_deployment_job"))).as("named tools still served").isEqualTo("ok");
  }

  @Test
  void underAllowAnUnlistedToolNeedsTheApprovalTheNamedWritesNeed() throws Exception {
    start("defaults: {}\n");

    var offered = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
    McpSchema.CallToolResult unapproved = call(V2);

    assertThat(offered).as("allow lists every tool").contains(V2);
    assertThat(code(unapproved)).isEqualTo("approval_required");
    assertThat(f.backend.ledger().callsReceived(V2)).isZero();
  }

  @Test
  void unlistedToolsShareOneBreakerSoANewNameGetsNoFreshCircuit() throws Exception {
    start(
        "defaults: {approval: none, breaker: {minimumCalls: 2, failureRatio: 0.5,"
            + " openSeconds: 60}}\n");
    f.backend.faults().inject(V2, Fault.status(503, 2));

    call(V2);
    call(V2);
    McpSchema.CallToolResult renamed = call("get_deployment_job_v3");

    assertThat(f.backend.ledger().callsReceived(V2)).as("never retried").isEqualTo(2);
    assertThat(code(renamed)).isEqualTo("circuit_open");
    assertThat(f.backend.ledger().callsReceived("get_deployment_job_v3"))
        .as("the open circuit of the unlisted tools kept it from the backend")
        .isZero();
  }
}
