package dev.toolgate.sidecar.proxy;

import dev.toolgate.policy.model.UpstreamAuth;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The credential the sidecar sends one upstream in the agent's place, read from a file mounted into
 * the sidecar alone; re-read in the background ({@link #refresh}), so a rotated Secret takes effect
 * without a restart. The agent's own {@code Authorization} never reaches that upstream.
 */
final class UpstreamCredential {

  private static final Logger LOG = LoggerFactory.getLogger(UpstreamCredential.class);

  private final String upstream;
  private final UpstreamAuth auth;
  private volatile String value;

  private UpstreamCredential(String upstream, UpstreamAuth auth, String value) {
    this.upstream = upstream;
    this.auth = auth;
    this.value = value;
  }

  /** Reads the credential's file now; a file not there yet leaves the upstream without one. */
  static UpstreamCredential read(String upstream, UpstreamAuth auth) {
    String value = null;
    try {
      value = Files.readString(Path.of(auth.file()), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      LOG.warn(
          "upstream '{}': cannot read its credential from {} yet; its requests go without one",
          upstream,
          auth.file());
    }
    return new UpstreamCredential(upstream, auth, value == null || value.isEmpty() ? null : value);
  }

  /** Re-reads the file off the event loop; a failed read keeps the last value. */
  void refresh(Vertx vertx) {
    vertx
        .fileSystem()
        .readFile(auth.file())
        .onSuccess(
            b -> {
              String next = b.toString(StandardCharsets.UTF_8).strip();
              if (!next.isEmpty() && !next.equals(value)) {
                value = next;
                LOG.info("upstream '{}': credential re-read from {}", upstream, auth.file());
              }
            });
  }

  /** Sets the sidecar's credential on a request's headers, and drops whatever the agent sent. */
  void apply(MultiMap headers) {
    headers.remove(HttpHeaders.AUTHORIZATION);
    headers.remove(auth.header());
    String current = value;
    if (current != null) {
      headers.set(auth.header(), auth.prefix() + current);
    }
  }
}
