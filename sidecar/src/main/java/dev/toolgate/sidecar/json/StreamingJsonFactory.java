package dev.toolgate.sidecar.json;

import io.vertx.core.json.jackson.JacksonCodec;
import io.vertx.core.spi.JsonFactory;
import io.vertx.core.spi.json.JsonCodec;

/**
 * Makes Vert.x encode and decode {@code JsonObject}s with Jackson's streaming parser and generator
 * instead of its data-binding codec. Vert.x picks data binding whenever jackson-databind is on the
 * class path (the sidecar needs it for its YAML configuration), and data binding looks up a
 * serializer per map value: on the call path that was the largest single CPU cost of the sidecar
 * (bench/README.md). The streaming codec handles every type a JSON-RPC message holds (maps, lists,
 * strings, numbers, booleans, null), Instants and byte arrays; it refuses POJOs, which the sidecar
 * never puts in a message.
 *
 * <p>Registered in {@code META-INF/services}; Vert.x takes the factory with the lowest order.
 */
public final class StreamingJsonFactory implements JsonFactory {

  private static final JacksonCodec CODEC = new JacksonCodec();

  @Override
  public int order() {
    return 0;
  }

  @Override
  public JsonCodec codec() {
    return CODEC;
  }
}
