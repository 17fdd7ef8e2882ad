package dev.toolgate.bench;

import dev.toolgate.sidecar.mcp.JsonEncoding;
import dev.toolgate.sidecar.mcp.JsonRpc;
import dev.toolgate.sidecar.mcp.MessageSplice;
import dev.toolgate.sidecar.mcp.OperationId;
import dev.toolgate.sidecar.mcp.ParsedMessage;
import dev.toolgate.sidecar.mcp.ScannedAnswer;
import dev.toolgate.sidecar.mcp.SseEvent;
import dev.toolgate.sidecar.mcp.SseParser;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * A tool call's request and its answer passed on under the other side's id, as the load benchmark
 * sends them (1 KiB of arguments; an answer carrying them back): spliced ({@link MessageSplice},
 * what the sidecar does) against re-encoded from the parsed message (what it falls back to, and did
 * before); the request's benchmarks include its parse. Run: see bench/README.md.
 */
public class MessagePassingBench extends JmhSettings {

  private static final String NOTE = "x".repeat(1000);
  private static final String UPSTREAM_ID = "tg-1a2b3c-2f-a1";

  private final Buffer request =
      Buffer.buffer(
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
              + "{\"name\":\"get_deployment_job\",\"arguments\":{\"job_id\":\"j1\",\"note\":\""
              + NOTE
              + "\"}}}");
  private final Buffer answer =
      Buffer.buffer(
          "{\"jsonrpc\":\"2.0\",\"id\":\""
              + UPSTREAM_ID
              + "\",\"result\":"
              + "{\"content\":[{\"type\":\"text\",\"text\":\"job j1 running\"}],\"structuredContent\":{\"job_id\":\"j1\","
              + "\"status\":\"running\",\"note\":\""
              + NOTE
              + "\"},\"isError\":false}}");
  private final JsonObject parsedAnswer = new JsonObject(answer);

  /**
   * The same answer on an SSE stream, as the demo backend sends it: priming event, comment, answer.
   */
  private final Buffer answerStream =
      Buffer.buffer(
          "id: s1:0\nretry: 500\ndata: \n\n: working on get_deployment_job\n\n"
              + "id: s1:1\nevent: message\ndata: "
              + answer
              + "\n\n");

  private static JsonObject sidecarMeta() {
    return new JsonObject().put("dev.toolgate/deadline-ms", 4000L);
  }

  /**
   * The request parsed once ({@link ParsedMessage}), which finds where the splice's edits go, and
   * spliced.
   */
  @Benchmark
  public Buffer requestSpliced() {
    ParsedMessage message = ParsedMessage.parse(request);
    return MessageSplice.withIdAndMeta(message, UPSTREAM_ID, sidecarMeta());
  }

  /** The request parsed, and re-encoded from its maps. */
  @Benchmark
  public Buffer requestReEncoded() {
    JsonObject parsed = (JsonObject) ParsedMessage.parse(request).value();
    JsonObject out = new JsonObject(new LinkedHashMap<>(parsed.getMap())).put("id", UPSTREAM_ID);
    JsonObject params =
        new JsonObject(new LinkedHashMap<>(parsed.getJsonObject("params").getMap()));
    out.put("params", params.put("_meta", sidecarMeta()));
    return JsonEncoding.buffer(out, request.length() + 160);
  }

  @Benchmark
  public Buffer answerSpliced() {
    return MessageSplice.withId(answer, 1);
  }

  @Benchmark
  public Buffer answerReEncoded() {
    return JsonEncoding.buffer(parsedAnswer.put("id", 1), answer.length());
  }

  /**
   * An answer read as the sidecar did before it scanned: parsed, checked as the attempt's,
   * classified, spliced.
   */
  @Benchmark
  public Buffer answerReadParsed() {
    JsonObject message = new JsonObject(answer);
    if (!JsonRpc.isResponse(message) || !UPSTREAM_ID.equals(message.getValue("id"))) {
      return null;
    }
    JsonObject result = message.getJsonObject("result");
    boolean isError = result != null && result.getBoolean("isError", false);
    return isError ? null : MessageSplice.withId(answer, 1);
  }

  /**
   * The same read by one scan ({@link ScannedAnswer}), noting the keys an operation id is read from
   * as the sidecar does: checked, classified and spliced from its bytes.
   */
  @Benchmark
  public Buffer answerReadScanned() {
    ScannedAnswer scanned = ScannedAnswer.of(answer, OperationId.KEYS);
    if (scanned == null || !scanned.idIs(UPSTREAM_ID)) {
      return null;
    }
    return scanned.kind() == ScannedAnswer.Kind.RESULT ? scanned.withId(1) : null;
  }

  /** The stream's events read, the answer's found and parsed, and the agent's event written. */
  @Benchmark
  public Buffer answerOnAStream() {
    Buffer[] toAgent = new Buffer[1];
    new SseParser(
            event -> {
              if (event.isMessage() && event.dataContains(UPSTREAM_ID)) {
                JsonObject message = new JsonObject(event.data());
                Buffer spliced = MessageSplice.eventWithId(event.data(), 1);
                toAgent[0] =
                    spliced != null
                        ? spliced
                        : SseEvent.format(null, null, message.put("id", 1).encode());
              }
            })
        .feed(answerStream);
    return toAgent[0];
  }
}
