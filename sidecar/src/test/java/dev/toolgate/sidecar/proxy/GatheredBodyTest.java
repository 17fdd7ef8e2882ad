package dev.toolgate.sidecar.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

class GatheredBodyTest {

  @Test
  void keepsABodyThatCameAsOneChunkAsThatChunk() {
    Buffer chunk = Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}");
    GatheredBody body = new GatheredBody(1024, chunk.length());

    assertThat(body.add(chunk)).isTrue();

    assertThat(body.body()).isSameAs(chunk);
  }

  @Test
  void gathersTheChunksOfABodyInTheirOrderWithoutChangingTheFirst() {
    Buffer first = Buffer.buffer("{\"a\":");
    GatheredBody body = new GatheredBody(1024, -1);

    body.add(first);
    body.add(Buffer.buffer("[1,"));
    body.add(Buffer.buffer("2]}"));

    assertThat(body.body().toString()).isEqualTo("{\"a\":[1,2]}");
    assertThat(first.toString()).isEqualTo("{\"a\":");
  }

  @Test
  void refusesTheChunkThatTakesTheBodyOverTheLimitAndEveryChunkAfter() {
    GatheredBody body = new GatheredBody(8, 8);

    assertThat(body.add(Buffer.buffer("12345"))).isTrue();
    assertThat(body.add(Buffer.buffer("6789"))).isFalse();
    assertThat(body.exceeded()).isTrue();
    assertThat(body.add(Buffer.buffer("0"))).isFalse();
    assertThat(body.body().length()).as("nothing held once over the limit").isZero();
  }

  @Test
  void acceptsABodyOfExactlyTheLimit() {
    GatheredBody body = new GatheredBody(8, -1);

    assertThat(body.add(Buffer.buffer("1234"))).isTrue();
    assertThat(body.add(Buffer.buffer("5678"))).isTrue();

    assertThat(body.exceeded()).isFalse();
    assertThat(body.body().toString()).isEqualTo("12345678");
  }

  @Test
  void isEmptyWhenNoChunkCame() {
    assertThat(new GatheredBody(8, 0).body().length()).isZero();
  }
}
