package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolgate.sidecar.support.SidecarFixture;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tool call's bytes on their way through the sidecar, seen by an upstream that records them raw
 * and answers with bytes of its own, as JSON or on an SSE stream: only the id and the sidecar's
 * {@code _meta} change, unless the message could mean two things or would not fit one line.
 */
class MessageBytesIT {

  private static final String UPSTREAM = "raw-upstream";

  @TempDir Path dir;
  private final Vertx vertx = Vertx.vertx();
  private final List<String> received = new CopyOnWriteArrayList<>();

  /** The upstream's answer, {@code $ID} standing for the request's id as JSON. */
  private volatile String answer;

  private volatile String answerType = "application/json";
  private HttpServer upstream;
  private SidecarFixture f;

  @BeforeEach
  void start() throws Exception {
    upstream =
        vertx
            .createHttpServer()
            .requestHandler(
                req ->
                    req.body()
                        .onSuccess(
                            body -> {
                              received.add(body.toString());
                              String id = Json.encode(new JsonObject(body).getValue("id"));
                              req.response()
                                  .putHeader("Content-Type", answerType)
                                  .end(answer.replace("$ID", id));
                            }))
            .listen(0, "127.0.0.1")
            .await(10, TimeUnit.SECONDS);
    f =
        SidecarFixture.start(
            dir, Map.of(UPSTREAM, "http://127.0.0.1:" + upstream.actualPort() + "/mcp"), "");
  }

  @AfterEach
  void stop() throws Exception {
    f.close();
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  void passesTheCallAndItsAnswerOnAsTheyCameWithOnlyTheIdAndTheMetaChanged() throws Exception {
    String head = "{ \"jsonrpc\": \"2.0\", \"id\": ";
    String tail =
        ", \"method\": \"tools/call\",\n  \"params\": {\"name\": \"lookup\", \"arguments\": {\"q\": \"caf\\u00e9 \\\"x\\\"\"}} }";
    answer =
        "{\"result\": {\"content\": [{\"type\": \"text\", \"text\": \"é \\u00e9\"}]},\n  \"id\": $ID, \"jsonrpc\": \"2.0\"}";

    HttpResponse<String> reply = f.send(f.post(UPSTREAM, head + "\"agent-1\"" + tail));

    assertThat(received).hasSize(1);
    String sent = received.get(0);
    String upstreamId = new JsonObject(sent).getString("id");
    assertThat(upstreamId).startsWith("tg-");
    assertThat(sent)
        .isEqualTo(
            head
                + "\""
                + upstreamId
                + "\""
                + tail.replace(
                    "\"params\": {",
                    "\"params\": {\"_meta\":{\"dev.toolgate/deadline-ms\":"
                        + new JsonObject(sent)
                            .getJsonObject("params")
                            .getJsonObject("_meta")
                            .getLong("dev.toolgate/deadline-ms")
                        + "},"));
    assertThat(reply.statusCode()).isEqualTo(200);
    assertThat(reply.body()).isEqualTo(answer.replace("$ID", "\"agent-1\""));
  }

  @Test
  void passesAnAnswerOnAStreamOnAsItCameWithOnlyTheIdChanged() throws Exception {
    String json =
        "{\"result\": {\"content\": [{\"type\": \"text\", \"text\": \"é \\u00e9\"}]}, \"id\": $ID, \"jsonrpc\": \"2.0\"}";
    answerType = "text/event-stream";
    answer = "id: s:0\nretry: 500\ndata: \n\nid: s:1\nevent: message\ndata: " + json + "\n\n";

    HttpResponse<String> reply =
        f.send(f.post(UPSTREAM, SidecarFixture.toolCall("agent-2", "lookup", "{}", null)));

    assertThat(reply.headers().firstValue("Content-Type")).hasValue("text/event-stream");
    assertThat(reply.body())
        .isEqualTo(
            "id: s:0\nretry: 500\ndata: \n\n"
                + "id: s:1\nevent: message\ndata: "
                + json.replace("$ID", "\"agent-2\"")
                + "\n\n");
    assertThat(f.events.first("lookup").result()).isEqualTo("success");
  }

  @Test
  void reEncodesAnAnswerOnAStreamWhoseDataSpansLinesIntoOneLine() throws Exception {
    answerType = "text/event-stream";
    answer =
        "event: message\ndata: {\"jsonrpc\": \"2.0\",\ndata:  \"id\": $ID,\r\ndata: \"result\": {\"content\": []}}\n\n";

    HttpResponse<String> reply =
        f.send(f.post(UPSTREAM, SidecarFixture.toolCall(8, "lookup", "{}", null)));

    assertThat(reply.body())
        .isEqualTo(
            "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{\"content\":[]}}\n\n");
  }

  @Test
  void reEncodesACallWithAKeyGivenTwiceSoThatTheUpstreamSeesTheToolThePolicySaw() throws Exception {
    answer = "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{\"content\":[]}}";

    HttpResponse<String> reply =
        f.send(
            f.post(
                UPSTREAM,
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"delete_everything\",\"arguments\":{},\"name\":\"lookup\"}}"));

    assertThat(reply.statusCode()).isEqualTo(200);
    assertThat(received).hasSize(1);
    assertThat(received.get(0)).doesNotContain("delete_everything");
    assertThat(new JsonObject(received.get(0)).getJsonObject("params").getString("name"))
        .isEqualTo("lookup");
    assertThat(f.events.first("lookup").tool()).isEqualTo("lookup");
  }

  @Test
  void reEncodesAnAnswerWithAKeyGivenTwiceSoThatTheAgentSeesWhatThePolicyClassified()
      throws Exception {
    answer =
        "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{\"isError\":false,\"content\":[],\"isError\":true}}";

    HttpResponse<String> reply =
        f.send(f.post(UPSTREAM, SidecarFixture.toolCall(6, "lookup", "{}", null)));

    JsonObject result = new JsonObject(reply.body()).getJsonObject("result");
    assertThat(reply.body()).containsOnlyOnce("isError");
    assertThat(result.getBoolean("isError")).isTrue();
    assertThat(f.events.first("lookup").result()).isNotEqualTo("success");
  }

  @Test
  void answersAMalformedResponseAtOnceAsAProtocolErrorUnderTheAgentsId() throws Exception {
    for (String malformed :
        List.of(
            "\"error\":\"boom\"",
            "\"result\":{\"isError\":\"yes\",\"content\":[]}",
            "\"result\":\"done\"")) {
      answer = "{\"jsonrpc\":\"2.0\",\"id\":$ID," + malformed + "}";
      String tool = "lookup-" + received.size();

      HttpResponse<String> reply =
          f.send(f.post(UPSTREAM, SidecarFixture.toolCall(9, tool, "{}", null)));

      assertThat(reply.body()).as(malformed).isEqualTo(answer.replace("$ID", "9"));
      assertThat(f.events.first(tool).result()).as(malformed).isEqualTo("protocol_error");
      assertThat(f.events.first(tool).decision()).as(malformed).isEqualTo("forwarded");
    }
  }
}
