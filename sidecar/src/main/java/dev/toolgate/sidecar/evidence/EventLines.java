package dev.toolgate.sidecar.evidence;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Evidence as JSON lines: each item of a batch — an {@link AttemptEvent}, written field by field,
 * or a record already encoded as JSON text — on a line of its own, in the batch's order.
 *
 * <p>One generator writes the whole batch, so Jackson's buffers are taken and given back once per
 * batch rather than once per event. Cost: O(bytes written), no intermediate string or map.
 */
public final class EventLines {

  private static final JsonFactory JSON =
      JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

  private EventLines() {}

  /**
   * Writes {@code items} to {@code out}, one line each.
   *
   * @throws IllegalArgumentException for an item that is neither an event nor a string
   */
  public static void write(List<?> items, OutputStream out) throws IOException {
    try (JsonGenerator json = JSON.createGenerator(out)) {
      // The newline after each item separates them; Jackson's own separator between root values
      // (a space) would start every line after the first.
      json.setRootValueSeparator(null);
      for (Object item : items) {
        if (item instanceof AttemptEvent event) {
          event.writeJson(json);
        } else if (item instanceof String record) {
          json.writeRaw(record);
        } else {
          throw new IllegalArgumentException(
              "not an evidence item: " + (item == null ? "null" : item.getClass().getName()));
        }
        json.writeRaw('\n');
      }
    }
  }
}
