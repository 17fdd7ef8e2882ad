package dev.toolgate.demo;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * One SSE stream of the demo backend. Every event it sent is kept so that a client that lost the
 * connection can resume with {@code Last-Event-ID} (ids are {@code <streamId>:<seq>}). Confined to
 * the server's event loop.
 */
final class EventStream {

  private final String id;
  private final List<String> events = new ArrayList<>();
  private HttpServerResponse response;
  private boolean complete;

  EventStream(String id, HttpServerResponse response) {
    this.id = id;
    attach(response, -1);
  }

  String id() {
    return id;
  }

  /** Sends the priming event: an id and a reconnection delay with empty data. */
  void prime(int retryMs) {
    append("id: " + nextId() + "\nretry: " + retryMs + "\ndata: \n\n");
  }

  void comment(String text) {
    write(": " + text + "\n\n");
  }

  void message(String json) {
    append("id: " + nextId() + "\nevent: message\ndata: " + json + "\n\n");
  }

  /** Sends the last event and ends the response; the stream stays replayable. */
  void complete(String json) {
    message(json);
    complete = true;
    if (response != null && !response.ended()) {
      response.end();
    }
    response = null;
  }

  /** Replays what came after {@code afterSeq} to a new response, then follows the stream. */
  void attach(HttpServerResponse newResponse, int afterSeq) {
    this.response = newResponse;
    for (int i = afterSeq + 1; i < events.size(); i++) {
      newResponse.write(events.get(i));
    }
    newResponse.closeHandler(
        v -> {
          if (response == newResponse) {
            response = null;
          }
        });
    if (complete) {
      newResponse.end();
      response = null;
    }
  }

  /** Drops the connection without ending the stream properly. */
  void abort() {
    if (response != null) {
      response.reset();
      response = null;
    }
  }

  boolean connected() {
    return response != null;
  }

  private String nextId() {
    return id + ":" + events.size();
  }

  private void append(String event) {
    events.add(event);
    write(event);
  }

  private void write(String text) {
    if (response != null && !response.ended()) {
      response.write(Buffer.buffer(text));
    }
  }
}
