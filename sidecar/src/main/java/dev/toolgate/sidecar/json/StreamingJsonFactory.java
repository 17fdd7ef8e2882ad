package dev.toolgate.sidecar.json;

import io.vertx.core.json.jackson.JacksonCodec;
import io.vertx.core.spi.JsonFactory;
import io.vertx.core.spi.json.JsonCodec;

/**
 * Makes Vert.x encode and decode {@code JsonObject}s with Jackson's streaming parser and generator,
 * also where jackson-databind is on the class path (tests, an application that embeds the sidecar):
 * Vert.x then picks its data-binding codec, which looks up a serializer per map value, the largest
 * single CPU cost of the call path when it was measured. The sidecar's jar has no data binding;
 * this keeps one codec wherever it runs. The streaming codec handles every type a JSON-RPC message
 * holds (maps, lists, strings, numbers, booleans, null), Instants and byte arrays; it refuses
 * POJOs, which the sidecar never puts in a message.
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
